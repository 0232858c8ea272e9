// range(start, stop, step): an immutable arithmetic sequence, never materialised.
import { StarlarkError } from "../errors.js";
import { type Printer, SValue, type Value } from "./value.js";

export class Range extends SValue {
  readonly length: number;
  constructor(
    readonly start: number,
    readonly stop: number,
    readonly step: number,
  ) {
    super();
    if (step === 0) throw new StarlarkError("range: step argument must not be zero");
    const n = step > 0 ? Math.ceil((stop - start) / step) : Math.ceil((start - stop) / -step);
    this.length = n > 0 ? n : 0;
  }
  override typeName(): string {
    return "range";
  }
  override writeRepr(out: Printer): void {
    if (this.step !== 1) out.write(`range(${this.start}, ${this.stop}, ${this.step})`);
    else if (this.start !== 0) out.write(`range(${this.start}, ${this.stop})`);
    else out.write(`range(${this.stop})`);
  }
  override truth(): boolean {
    return this.length > 0;
  }
  override equals(other: Value): boolean {
    if (!(other instanceof Range) || other.length !== this.length) return false;
    if (this.length === 0) return true;
    if (this.start !== other.start) return false;
    return this.length === 1 || this.step === other.step;
  }
  override len(): number {
    return this.length;
  }
  at(i: number): number {
    return this.start + i * this.step;
  }
  contains(x: number): boolean {
    if (this.step > 0 ? x < this.start || x >= this.stop : x > this.start || x <= this.stop) return false;
    return (x - this.start) % this.step === 0;
  }
  override *iterate(): Iterable<Value> {
    for (let i = 0; i < this.length; i++) yield this.start + i * this.step;
  }
}
