// Built-in functions and methods: a signature (parameters with defaults, *args, keyword-only
// parameters, **kwargs) parsed from text like "split(sep=None, maxsplit=-1)", and the binding of a
// call's arguments to it.
import { StarlarkError } from "../errors.js";
import { Dict } from "../values/dict.js";
import { SFloat } from "../values/float.js";
import { normInt } from "../values/int.js";
import { Tuple, tuple } from "../values/list.js";
import { Callable, type Printer, typeName, type Value } from "../values/value.js";
import type { Thread } from "./thread.js";

export interface Signature {
  readonly name: string;
  /** Named parameters in declaration order (positional-or-keyword ones, then keyword-only ones). */
  readonly names: readonly string[];
  /** The slot of each named parameter in the bound arguments. */
  readonly slots: readonly number[];
  /** How many named parameters accept a positional argument. */
  readonly numPositional: number;
  /** How many of the first named parameters accept only a positional argument (before `/`). */
  readonly positionalOnly: number;
  /** Per named parameter: its default; undefined when there is none. */
  readonly defaults: readonly (Value | undefined)[];
  /** Per named parameter: whether a call may omit it. */
  readonly optional: readonly boolean[];
  readonly varargs: boolean;
  readonly kwargs: boolean;
  /** Slot of `*args` / `**kwargs` in the bound arguments, or -1. */
  readonly varargsSlot: number;
  readonly kwargsSlot: number;
  /** The number of slots: one per parameter, in declaration order. */
  readonly size: number;
  /** The parameter name of each slot. */
  readonly slotNames: readonly string[];
}

const tokenRe =
  /\s*(\*\*|\*|\/|,|=|\(|\)|\?|-?[0-9]+\.[0-9]+|-?[0-9]+|[A-Za-z_][A-Za-z0-9_]*|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')/y;

function literal(tok: string, where: string): Value {
  if (tok === "None") return null;
  if (tok === "True") return true;
  if (tok === "False") return false;
  if (/^-?[0-9]+$/.test(tok)) return normInt(BigInt(tok));
  if (/^-?[0-9]+\.[0-9]+$/.test(tok)) return new SFloat(Number(tok));
  if (tok.startsWith('"')) return JSON.parse(tok) as string;
  if (tok.startsWith("'"))
    return JSON.parse(`"${tok.slice(1, -1).replace(/"/g, '\\"').replace(/\\'/g, "'")}"`) as string;
  if (tok === "()") return tuple([]);
  throw new Error(`signature ${where}: unsupported default ${tok}`);
}

/**
 * Parses a signature such as `run(prog, *args, env=None, cwd=None)`. Parameters after `*` or
 * `*args` are keyword-only; those before `/` positional-only. A default is a literal (None, True,
 * False, an int, a float, a string, `()`); `name?` marks a parameter that may be omitted and then
 * reaches the implementation as undefined.
 */
export function parseSignature(text: string): Signature {
  const toks: string[] = [];
  tokenRe.lastIndex = 0;
  let m: RegExpExecArray | null = tokenRe.exec(text);
  while (m !== null) {
    toks.push(m[1] as string);
    if (tokenRe.lastIndex >= text.length) break;
    m = tokenRe.exec(text);
  }
  if (text.slice(tokenRe.lastIndex).trim() !== "" && tokenRe.lastIndex !== text.length) {
    throw new Error(`signature ${text}: cannot parse`);
  }
  let p = 0;
  const name = toks[p++] as string;
  if (toks[p++] !== "(") throw new Error(`signature ${text}: want name(...)`);
  const names: string[] = [];
  const slots: number[] = [];
  let size = 0;
  let varargsSlot = -1;
  let kwargsSlot = -1;
  const slotNames: string[] = [];
  const defaults: (Value | undefined)[] = [];
  const optional: boolean[] = [];
  let numPositional = -1;
  let positionalOnly = 0;
  let varargs = false;
  let kwargs = false;
  while (toks[p] !== ")") {
    const t = toks[p++];
    if (t === undefined) throw new Error(`signature ${text}: missing )`);
    if (t === "/") {
      positionalOnly = names.length;
    } else if (t === "*") {
      if (numPositional < 0) numPositional = names.length;
      if (/^[A-Za-z_]/.test(toks[p] ?? "")) {
        varargs = true;
        varargsSlot = size++;
        slotNames.push(toks[p] as string);
        p++;
      }
    } else if (t === "**") {
      kwargs = true;
      kwargsSlot = size++;
      slotNames.push(toks[p] as string);
      p++;
    } else {
      names.push(t);
      slots.push(size++);
      slotNames.push(t);
      if (toks[p] === "=") {
        p++;
        let lit = toks[p++] as string;
        if (lit === "(" && toks[p] === ")") {
          p++;
          lit = "()";
        }
        defaults.push(literal(lit, text));
        optional.push(true);
      } else if (toks[p] === "?") {
        p++;
        defaults.push(undefined);
        optional.push(true);
      } else {
        defaults.push(undefined);
        optional.push(false);
      }
    }
    if (toks[p] === ",") p++;
  }
  if (numPositional < 0) numPositional = names.length;
  return {
    name,
    names,
    slots,
    numPositional,
    positionalOnly,
    defaults,
    optional,
    varargs,
    kwargs,
    varargsSlot,
    kwargsSlot,
    size,
    slotNames,
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/**
 * Binds a call's arguments to `sig`: one slot per parameter in declaration order; an omitted named
 * parameter gets its default (or undefined), `*args` a tuple and `**kwargs` a dict.
 */
export function bindSignature(sig: Signature, args: Value[], kwnames: readonly string[] | null): Value[] {
  const nkw = kwnames === null ? 0 : kwnames.length;
  const nargs = args.length - nkw;
  const names = sig.names;
  const n = names.length;
  // fast path: positional arguments only (the call's own array, completed with the defaults)
  if (nkw === 0 && !sig.varargs && !sig.kwargs && n <= sig.numPositional && nargs <= n) {
    for (let i = nargs; i < n; i++) {
      if (!sig.optional[i]) throw new StarlarkError(`${sig.name}: missing argument for ${names[i]}`);
      args.push(sig.defaults[i] as Value);
    }
    return args;
  }
  const out: (Value | undefined)[] = new Array(sig.size);
  const npos = sig.numPositional;
  if (nargs > npos) {
    if (!sig.varargs) {
      throw new StarlarkError(
        `${sig.name}: got ${plural(nargs, "positional argument")}, want ${npos === 0 ? "none" : `at most ${npos}`}`,
      );
    }
    out[sig.varargsSlot] = new Tuple(args.slice(npos, nargs));
  } else if (sig.varargs) {
    out[sig.varargsSlot] = tuple([]);
  }
  const k = nargs < npos ? nargs : npos;
  const given = new Array<boolean>(n).fill(false);
  for (let i = 0; i < k; i++) {
    out[sig.slots[i] as number] = args[i];
    given[i] = true;
  }
  let kw: Dict | undefined;
  if (sig.kwargs) {
    kw = new Dict();
    out[sig.kwargsSlot] = kw;
  }
  for (let j = 0; j < nkw; j++) {
    const name = (kwnames as readonly string[])[j] as string;
    const value = args[nargs + j] as Value;
    const i = names.indexOf(name);
    if (i < 0 || i < sig.positionalOnly) {
      if (kw === undefined) throw new StarlarkError(`${sig.name}: unexpected keyword argument ${name}`);
      if (kw.has(name))
        throw new StarlarkError(`${sig.name}: got multiple values for keyword argument ${name}`);
      kw.set(name, value);
    } else if (given[i]) {
      throw new StarlarkError(`${sig.name}: got multiple values for parameter ${name}`);
    } else {
      out[sig.slots[i] as number] = value;
      given[i] = true;
    }
  }
  for (let i = 0; i < n; i++) {
    if (given[i]) continue;
    if (!sig.optional[i]) throw new StarlarkError(`${sig.name}: missing argument for ${names[i]}`);
    out[sig.slots[i] as number] = sig.defaults[i];
  }
  return out as Value[];
}

export type BuiltinImpl = (args: Value[], thread: Thread) => Value;
export type MethodImpl<R = Value> = (recv: R, args: Value[], thread: Thread) => Value;

/** A built-in function (the interpreter's or the host's). */
export class Builtin extends Callable {
  readonly sig: Signature;
  constructor(
    signature: string | Signature,
    readonly impl: BuiltinImpl,
  ) {
    super();
    this.sig = typeof signature === "string" ? parseSignature(signature) : signature;
  }
  override get name(): string {
    return this.sig.name;
  }
  override typeName(): string {
    return "builtin_function_or_method";
  }
  override writeRepr(out: Printer): void {
    out.write(`<built-in function ${this.sig.name}>`);
  }
  override call(thread: Thread, args: Value[], kwnames: readonly string[] | null): Value {
    return this.impl(bindSignature(this.sig, args, kwnames), thread);
  }
}

/** A method of a built-in type. */
export interface Method {
  readonly sig: Signature;
  readonly impl: MethodImpl;
}

export function method<R extends Value>(signature: string, impl: MethodImpl<R>): Method {
  return { sig: parseSignature(signature), impl: impl as MethodImpl };
}

/** A method together with its receiver: what `"abc".upper` evaluates to. */
export class BoundMethod extends Callable {
  constructor(
    readonly method: Method,
    readonly recv: Value,
  ) {
    super();
  }
  override get name(): string {
    return this.method.sig.name;
  }
  override typeName(): string {
    return "builtin_function_or_method";
  }
  override writeRepr(out: Printer): void {
    out.write(`<built-in method ${this.method.sig.name} of ${typeName(this.recv)} value>`);
  }
  override call(thread: Thread, args: Value[], kwnames: readonly string[] | null): Value {
    return this.method.impl(this.recv, bindSignature(this.method.sig, args, kwnames), thread);
  }
}
