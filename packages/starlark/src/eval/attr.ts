// Attributes: `x.name` (a field of a host value, or a method of a built-in type), hasattr, dir,
// and the direct call of a method without building the bound method.
import { bytesMethods, dictMethods, listMethods, setMethods } from "../builtins/collection-methods.js";
import { stringMethods } from "../builtins/string-methods.js";
import { StarlarkError } from "../errors.js";
import { Bytes } from "../values/bytes.js";
import { Dict, SSet } from "../values/dict.js";
import { List } from "../values/list.js";
import { SValue, typeName, type Value } from "../values/value.js";
import { BoundMethod, bindSignature, type Method } from "./builtin.js";
import { callValue, type Thread } from "./thread.js";

export function methodsOf(x: Value): ReadonlyMap<string, Method> | undefined {
  if (typeof x === "string") return stringMethods;
  if (x instanceof List) return listMethods;
  if (x instanceof Dict) return dictMethods;
  if (x instanceof SSet) return setMethods;
  if (x instanceof Bytes) return bytesMethods;
  return undefined;
}

/** The attribute names of `x`, sorted. */
export function attrNames(x: Value): string[] {
  const names = new Set<string>();
  if (x instanceof SValue) for (const n of x.fieldNames()) names.add(n);
  const m = methodsOf(x);
  if (m) for (const n of m.keys()) names.add(n);
  return [...names].sort();
}

/** `x.name`, or undefined when there is no such attribute. */
export function findAttr(x: Value, name: string): Value | undefined {
  if (x instanceof SValue) {
    const f = x.getField(name);
    if (f !== undefined) return f;
  }
  const m = methodsOf(x)?.get(name);
  return m ? new BoundMethod(m, x) : undefined;
}

function near(name: string, names: string[]): string {
  const hit = names.find(
    (n) => n.toLowerCase() === name.toLowerCase() || n.startsWith(name) || name.startsWith(n),
  );
  return hit ? ` (did you mean .${hit}?)` : "";
}

/** `x.name`. */
export function getAttr(x: Value, name: string): Value {
  const v = findAttr(x, name);
  if (v !== undefined) return v;
  throw new StarlarkError(`${typeName(x)} has no .${name} field or method${near(name, attrNames(x))}`);
}

/** `x.name = v`. */
export function setAttr(x: Value, name: string, v: Value): void {
  if (x instanceof SValue) {
    x.setField(name, v);
    return;
  }
  throw new StarlarkError(`${typeName(x)} value does not support field assignment (.${name})`);
}

/** `recv.name(args)`. */
export function callMethod(
  thread: Thread,
  recv: Value,
  name: string,
  args: Value[],
  kwnames: readonly string[] | null,
): Value {
  const m = methodsOf(recv)?.get(name);
  if (m) return m.impl(recv, bindSignature(m.sig, args, kwnames), thread);
  return callValue(getAttr(recv, name), thread, args, kwnames);
}
