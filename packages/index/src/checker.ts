import { IndexFormatError } from "./errors.js";
import { childPath } from "./json-path.js";

export interface StringRule {
  min?: number;
  max?: number;
  pattern?: RegExp;
  /** What a value failing `pattern` is not, for the message: "not a valid tag name". */
  what?: string;
}

/** Type checks that throw an IndexFormatError naming the document and the JSON path. */
export class Checker {
  constructor(readonly where: string) {}

  fail(path: string, reason: string): never {
    throw new IndexFormatError(this.where, path, reason);
  }

  object(value: unknown, path: string): Record<string, unknown> {
    if (typeof value !== "object" || value === null || Array.isArray(value)) this.fail(path, "not an object");
    return value as Record<string, unknown>;
  }

  /** Refuses members outside `known` (when given: a closed object) and missing `required` ones. */
  members(
    obj: Record<string, unknown>,
    path: string,
    required: readonly string[],
    known?: readonly string[],
  ): void {
    for (const key of required) {
      if (!Object.hasOwn(obj, key)) this.fail(childPath(path, key), "required property missing");
    }
    if (known === undefined) return;
    for (const key of Object.keys(obj)) {
      if (!known.includes(key)) this.fail(childPath(path, key), "unknown property");
    }
  }

  string(value: unknown, path: string, rule: StringRule = {}): string {
    if (typeof value !== "string") this.fail(path, "not a string");
    const length = [...value].length;
    if (rule.min !== undefined && length < rule.min) {
      this.fail(path, rule.min === 1 ? "empty string" : `shorter than ${rule.min} characters`);
    }
    if (rule.max !== undefined && length > rule.max) this.fail(path, `longer than ${rule.max} characters`);
    if (rule.pattern !== undefined && !rule.pattern.test(value)) {
      this.fail(path, rule.what ?? `does not match ${rule.pattern.source}`);
    }
    return value;
  }

  integer(value: unknown, path: string, min: number): number {
    if (typeof value !== "number" || !Number.isInteger(value)) this.fail(path, "not an integer");
    if (value < min) this.fail(path, `${value} is less than the minimum of ${min}`);
    return value;
  }

  array(value: unknown, path: string): unknown[] {
    if (!Array.isArray(value)) this.fail(path, "not an array");
    return value;
  }

  stringArray(value: unknown, path: string, rule: StringRule = {}): string[] {
    return this.array(value, path).map((item, i) => this.string(item, childPath(path, i), rule));
  }
}
