// The `%` operator on strings: %s %r %d %i %o %x %X %e %E %f %F %g %G %c %%, and %(key)s with a dict.
import { StarlarkError } from "../errors.js";
import { Dict } from "./dict.js";
import { formatFloatE, formatFloatF, formatFloatG, SFloat } from "./float.js";
import { repr, str } from "./format.js";
import { floatToInt, type Int, intToFloat } from "./int.js";
import { Tuple } from "./list.js";
import { typeName, type Value } from "./value.js";

function asIntOperand(v: Value, conv: string): Int {
  if (typeof v === "number" || typeof v === "bigint") return v;
  if (v instanceof SFloat) return floatToInt(v.v);
  throw new StarlarkError(`%${conv} format requires integer: ${typeName(v)}`);
}

function asFloatOperand(v: Value, conv: string): number {
  if (typeof v === "number" || typeof v === "bigint") return intToFloat(v);
  if (v instanceof SFloat) return v.v;
  throw new StarlarkError(`%${conv} format requires float: ${typeName(v)}`);
}

function radix(n: Int, base: number, upper: boolean): string {
  const s = n.toString(base);
  return upper ? s.toUpperCase() : s;
}

function convert(conv: string, v: Value): string {
  switch (conv) {
    case "s":
      return str(v);
    case "r":
      return repr(v);
    case "d":
    case "i":
      return String(asIntOperand(v, conv));
    case "o":
      return radix(asIntOperand(v, conv), 8, false);
    case "x":
      return radix(asIntOperand(v, conv), 16, false);
    case "X":
      return radix(asIntOperand(v, conv), 16, true);
    case "e":
    case "E":
      return formatFloatE(asFloatOperand(v, conv), conv === "E");
    case "f":
    case "F":
      return formatFloatF(asFloatOperand(v, conv), conv === "F");
    case "g":
    case "G":
      return formatFloatG(asFloatOperand(v, conv), conv === "G");
    case "c":
      if (typeof v === "string") {
        if ([...v].length !== 1)
          throw new StarlarkError(`%c format requires a single-character string, got ${repr(v)}`);
        return v;
      }
      if (typeof v === "number") {
        if (v < 0 || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
          throw new StarlarkError(`%c format: invalid code point ${v}`);
        return String.fromCodePoint(v);
      }
      throw new StarlarkError(`%c format requires int or single-character string, not ${typeName(v)}`);
    default:
      throw new StarlarkError(`unknown conversion %${conv}`);
  }
}

/** `format % arg`. */
export function percentFormat(format: string, arg: Value): string {
  const args = arg instanceof Tuple ? arg.elems : [arg];
  let next = 0;
  let out = "";
  let i = 0;
  let usedKeys = false;
  for (;;) {
    const j = format.indexOf("%", i);
    if (j < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, j);
    let k = j + 1;
    if (k >= format.length) throw new StarlarkError("incomplete format");
    if (format[k] === "%") {
      out += "%";
      i = k + 1;
      continue;
    }
    let value: Value;
    if (format[k] === "(") {
      const close = format.indexOf(")", k);
      if (close < 0) throw new StarlarkError("incomplete format key");
      const key = format.slice(k + 1, close);
      if (!(arg instanceof Dict))
        throw new StarlarkError(`format with %(key) requires a dict, not ${typeName(arg)}`);
      const got = arg.get(key);
      if (got === undefined) throw new StarlarkError(`key ${repr(key)} not in dict`);
      value = got;
      usedKeys = true;
      k = close + 1;
      if (k >= format.length) throw new StarlarkError("incomplete format");
    } else {
      if (next >= args.length) throw new StarlarkError("not enough arguments for format string");
      value = args[next++] as Value;
    }
    out += convert(format[k] as string, value);
    i = k + 1;
  }
  if (!usedKeys && next < args.length) throw new StarlarkError("too many arguments for format string");
  return out;
}
