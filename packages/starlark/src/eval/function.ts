// Functions defined in Starlark: compiled code, defaults and captured cells; argument binding.
import { StarlarkError } from "../errors.js";
import { Dict } from "../values/dict.js";
import { freezeValue, Tuple, tuple } from "../values/list.js";
import { Callable, Cell, type Printer, type Value } from "../values/value.js";
import type { Thread } from "./thread.js";

/** A frame: the locals (cells for captured ones) and the closure of a running function. */
export class Frame {
  locals: (Value | Cell | undefined)[];
  ret: Value = null;
  constructor(
    readonly thread: Thread,
    readonly code: Code,
    readonly free: readonly Cell[],
  ) {
    this.locals = new Array(code.numLocals);
  }
}

/** Completion of a statement. */
export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export const RETURN = 3;

export type CStmt = (fr: Frame) => number;

/** The compiled form of a `def`, a `lambda` or the top level. */
export class Code {
  /** Set once the body is compiled. */
  body: CStmt = () => NORMAL;
  /** How many calls are running (recursion check). */
  active = 0;
  readonly paramIndex = new Map<string, number>();
  constructor(
    readonly name: string,
    readonly file: string,
    readonly line: number,
    readonly col: number,
    /** Named parameters in slot order: positional ones, then keyword-only ones. */
    readonly paramNames: readonly string[],
    /** How many of the named parameters accept positional arguments. */
    readonly numPositional: number,
    /** Slot of `*args`, or -1. */
    readonly varargs: number,
    /** Slot of `**kwargs`, or -1. */
    readonly kwargs: number,
    readonly numLocals: number,
    /** Local slots that hold cells (captured by nested functions). */
    readonly cellSlots: readonly number[],
  ) {
    paramNames.forEach((n, i) => {
      this.paramIndex.set(n, i);
    });
  }
}

/** The module a function belongs to: its globals. */
export interface ModuleContext {
  readonly globals: (Value | undefined)[];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

export class StarlarkFunction extends Callable {
  constructor(
    readonly code: Code,
    /** Per named parameter: its default, or undefined when required. */
    readonly defaults: readonly (Value | undefined)[],
    readonly free: readonly Cell[],
    readonly module: ModuleContext,
  ) {
    super();
  }
  override get name(): string {
    return this.code.name;
  }
  override typeName(): string {
    return "function";
  }
  override writeRepr(out: Printer): void {
    out.write(`<function ${this.code.name}>`);
  }
  override freeze(): void {
    for (const d of this.defaults) if (d !== undefined) freezeValue(d);
    for (const c of this.free) if (c.v !== undefined) freezeValue(c.v);
  }

  override call(thread: Thread, args: Value[], kwnames: readonly string[] | null): Value {
    const code = this.code;
    if (code.active > 0 && !thread.allowRecursion) {
      throw new StarlarkError(`function ${code.name} called recursively`);
    }
    const fr = new Frame(thread, code, this.free);
    bindArgs(this, fr.locals, args, kwnames);
    if (++thread.steps >= thread.checkAt) thread.checkpoint();
    if (thread.depth >= thread.maxCallDepth) {
      throw new StarlarkError(`call stack too deep (more than ${thread.maxCallDepth} nested calls)`);
    }
    code.active++;
    thread.depth++;
    try {
      code.body(fr);
      return fr.ret;
    } finally {
      code.active--;
      thread.depth--;
    }
  }
}

/** Binds the arguments of a call to the parameters of `fn` in `locals`. */
function bindArgs(
  fn: StarlarkFunction,
  locals: (Value | Cell | undefined)[],
  args: Value[],
  kwnames: readonly string[] | null,
): void {
  const code = fn.code;
  const nkw = kwnames === null ? 0 : kwnames.length;
  const nargs = args.length - nkw;
  const npos = code.numPositional;
  const nparams = code.paramNames.length;
  if (nargs > npos) {
    if (code.varargs < 0) {
      throw new StarlarkError(
        `function ${code.name} accepts ${plural(npos, "positional argument")} (${nargs} given)`,
      );
    }
    locals[code.varargs] = new Tuple(args.slice(npos, nargs));
  } else if (code.varargs >= 0) {
    locals[code.varargs] = tuple([]);
  }
  const n = nargs < npos ? nargs : npos;
  for (let i = 0; i < n; i++) locals[i] = args[i];
  if (nkw > 0 || code.kwargs >= 0) {
    const kwdict = code.kwargs >= 0 ? new Dict() : null;
    for (let j = 0; j < nkw; j++) {
      const name = (kwnames as readonly string[])[j] as string;
      const value = args[nargs + j] as Value;
      const idx = code.paramIndex.get(name);
      if (idx === undefined) {
        if (kwdict === null)
          throw new StarlarkError(`function ${code.name} got an unexpected keyword argument ${name}`);
        if (kwdict.has(name))
          throw new StarlarkError(`function ${code.name} got multiple values for keyword argument ${name}`);
        kwdict.set(name, value);
      } else if (locals[idx] !== undefined) {
        throw new StarlarkError(`function ${code.name} got multiple values for parameter ${name}`);
      } else {
        locals[idx] = value;
      }
    }
    if (kwdict !== null) locals[code.kwargs] = kwdict;
  }
  if (n < nparams) {
    let missing: string[] | undefined;
    for (let i = n; i < nparams; i++) {
      if (locals[i] !== undefined) continue;
      const d = fn.defaults[i];
      if (d !== undefined) locals[i] = d;
      else {
        missing ??= [];
        missing.push(code.paramNames[i] as string);
      }
    }
    if (missing) {
      throw new StarlarkError(
        `function ${code.name} missing ${plural(missing.length, "argument")} (${missing.join(", ")})`,
      );
    }
  }
  const cells = code.cellSlots;
  for (let i = 0; i < cells.length; i++) {
    const s = cells[i] as number;
    locals[s] = new Cell(locals[s] as Value | undefined);
  }
}
