// The methods of lists, dicts, sets and bytes.
import { StarlarkError } from "../errors.js";
import { indexRange, intArg } from "../eval/args.js";
import { type Method, method } from "../eval/builtin.js";
import type { Bytes } from "../values/bytes.js";
import { equals } from "../values/compare.js";
import { Dict, missingKey, SSet } from "../values/dict.js";
import { repr } from "../values/format.js";
import { List, type Tuple, tuple } from "../values/list.js";
import { elemIndex, iterate, toArray } from "../values/ops.js";
import { keyOf, typeName, type Value } from "../values/value.js";
import { BytesElems } from "../values/views.js";

export const listMethods = new Map<string, Method>([
  [
    "append",
    method<List>("append(x)", (l, a) => {
      l.checkMutable("append to");
      l.elems.push(a[0] as Value);
      return null;
    }),
  ],
  [
    "clear",
    method<List>("clear()", (l) => {
      l.checkMutable("clear");
      l.elems.length = 0;
      return null;
    }),
  ],
  [
    "extend",
    method<List>("extend(iterable)", (l, a) => {
      l.checkMutable("extend");
      const items = toArray(a[0] as Value).slice();
      for (const x of items) l.elems.push(x);
      return null;
    }),
  ],
  [
    "index",
    method<List>("index(x, start?, end?)", (l, a) => {
      const [s, e] = indexRange(l.elems.length, a[1], a[2], "index");
      for (let i = s; i < e; i++) if (equals(l.elems[i] as Value, a[0] as Value)) return i;
      throw new StarlarkError(`index: value ${repr(a[0] as Value)} not in list`);
    }),
  ],
  [
    "insert",
    method<List>("insert(index, x)", (l, a) => {
      l.checkMutable("insert into");
      const n = l.elems.length;
      let i = intArg(a[0] as Value, "insert: index");
      if (i < 0) i += n;
      i = i < 0 ? 0 : i > n ? n : i;
      l.elems.splice(i, 0, a[1] as Value);
      return null;
    }),
  ],
  [
    "pop",
    method<List>("pop(index=-1)", (l, a) => {
      l.checkMutable("pop from");
      if (l.elems.length === 0) throw new StarlarkError("pop: empty list");
      const i = elemIndex(a[0] as Value, l.elems.length, "pop: index");
      return l.elems.splice(i, 1)[0] as Value;
    }),
  ],
  [
    "remove",
    method<List>("remove(x)", (l, a) => {
      l.checkMutable("remove from");
      for (let i = 0; i < l.elems.length; i++) {
        if (equals(l.elems[i] as Value, a[0] as Value)) {
          l.elems.splice(i, 1);
          return null;
        }
      }
      throw new StarlarkError(`remove: element ${repr(a[0] as Value)} not found`);
    }),
  ],
]);

/** The pairs of `dict(pairs)` and `d.update(pairs)`. */
export function updateDict(d: Dict, pairs: Value | undefined, kwargs: Dict | undefined, what: string): void {
  if (pairs !== undefined && pairs !== null) {
    if (pairs instanceof Dict) {
      for (const e of [...pairs.entries()]) d.set(e.k, e.v);
    } else {
      let i = 0;
      for (const item of toArray(pairs)) {
        let kv: readonly Value[];
        try {
          kv = toArray(item);
        } catch {
          throw new StarlarkError(`${what}: element #${i} is not iterable (${typeName(item)})`);
        }
        if (kv.length !== 2)
          throw new StarlarkError(`${what}: element #${i} has length ${kv.length}, want 2`);
        d.set(kv[0] as Value, kv[1] as Value);
        i++;
      }
    }
  }
  if (kwargs) for (const e of kwargs.entries()) d.set(e.k, e.v);
}

export const dictMethods = new Map<string, Method>([
  [
    "clear",
    method<Dict>("clear()", (d) => {
      d.clear();
      return null;
    }),
  ],
  ["get", method<Dict>("get(key, default=None)", (d, a) => d.get(a[0] as Value) ?? (a[1] as Value))],
  ["items", method<Dict>("items()", (d) => new List([...d.entries()].map((e) => tuple([e.k, e.v]))))],
  ["keys", method<Dict>("keys()", (d) => new List(d.keys()))],
  ["values", method<Dict>("values()", (d) => new List(d.values()))],
  [
    "pop",
    method<Dict>("pop(key, default?)", (d, a) => {
      const k = a[0] as Value;
      keyOf(k);
      d.checkMutable("delete from");
      const v = d.delete(k);
      if (v !== undefined) return v;
      if (a[1] !== undefined) return a[1];
      throw missingKey(k);
    }),
  ],
  [
    "popitem",
    method<Dict>("popitem()", (d) => {
      d.checkMutable("delete from");
      const first = d.entries().next();
      if (first.done) throw new StarlarkError("popitem: empty dict");
      d.delete(first.value.k);
      return tuple([first.value.k, first.value.v]);
    }),
  ],
  [
    "setdefault",
    method<Dict>("setdefault(key, default=None)", (d, a) => {
      const k = a[0] as Value;
      const v = d.get(k);
      if (v !== undefined) return v;
      d.set(k, a[1] as Value);
      return a[1] as Value;
    }),
  ],
  [
    "update",
    method<Dict>("update(pairs?, /, **kwargs)", (d, a) => {
      d.checkMutable("insert into");
      updateDict(d, a[0], a[1] as Dict, "update");
      return null;
    }),
  ],
]);

function others(args: Value[]): readonly Value[] {
  return (args[0] as Tuple).elems;
}

function setOf(v: Value): SSet {
  return v instanceof SSet ? v : new SSet(iterate(v));
}

export const setMethods = new Map<string, Method>([
  [
    "add",
    method<SSet>("add(x)", (s, a) => {
      s.add(a[0] as Value);
      return null;
    }),
  ],
  [
    "clear",
    method<SSet>("clear()", (s) => {
      s.checkMutable("clear");
      s.map.clear();
      return null;
    }),
  ],
  [
    "difference",
    method<SSet>("difference(*others)", (s, a) => {
      const r = new SSet(s.values());
      for (const o of others(a)) for (const x of iterate(o)) r.map.delete(keyOf(x));
      return r;
    }),
  ],
  [
    "difference_update",
    method<SSet>("difference_update(*others)", (s, a) => {
      s.checkMutable("delete from");
      const drop = others(a).map(setOf);
      for (const o of drop) for (const k of o.map.keys()) s.map.delete(k);
      return null;
    }),
  ],
  [
    "discard",
    method<SSet>("discard(x)", (s, a) => {
      keyOf(a[0] as Value);
      s.discard(a[0] as Value);
      return null;
    }),
  ],
  [
    "intersection",
    method<SSet>("intersection(*others)", (s, a) => {
      let r = new SSet(s.values());
      for (const o of others(a)) {
        const os = setOf(o);
        const next = new SSet();
        for (const [k, v] of r.map) if (os.map.has(k)) next.map.set(k, v);
        r = next;
      }
      return r;
    }),
  ],
  [
    "intersection_update",
    method<SSet>("intersection_update(*others)", (s, a) => {
      s.checkMutable("delete from");
      const sets = others(a).map(setOf);
      for (const k of [...s.map.keys()]) if (!sets.every((o) => o.map.has(k))) s.map.delete(k);
      return null;
    }),
  ],
  [
    "isdisjoint",
    method<SSet>("isdisjoint(x)", (s, a) => {
      for (const x of iterate(a[0] as Value)) if (s.has(x)) return false;
      return true;
    }),
  ],
  [
    "issubset",
    method<SSet>("issubset(x)", (s, a) => {
      const o = setOf(a[0] as Value);
      for (const k of s.map.keys()) if (!o.map.has(k)) return false;
      return true;
    }),
  ],
  [
    "issuperset",
    method<SSet>("issuperset(x)", (s, a) => {
      for (const x of iterate(a[0] as Value)) if (!s.has(x)) return false;
      return true;
    }),
  ],
  [
    "pop",
    method<SSet>("pop()", (s) => {
      s.checkMutable("pop from");
      const first = s.map.entries().next();
      if (first.done) throw new StarlarkError("pop: empty set");
      s.map.delete(first.value[0]);
      return first.value[1];
    }),
  ],
  [
    "remove",
    method<SSet>("remove(x)", (s, a) => {
      s.checkMutable("delete from");
      if (!s.discard(a[0] as Value))
        throw new StarlarkError(`remove: element ${repr(a[0] as Value)} not found`);
      return null;
    }),
  ],
  [
    "symmetric_difference",
    method<SSet>("symmetric_difference(x)", (s, a) => {
      const o = setOf(a[0] as Value);
      const r = new SSet();
      for (const [k, v] of s.map) if (!o.map.has(k)) r.map.set(k, v);
      for (const [k, v] of o.map) if (!s.map.has(k)) r.map.set(k, v);
      return r;
    }),
  ],
  [
    "symmetric_difference_update",
    method<SSet>("symmetric_difference_update(x)", (s, a) => {
      s.checkMutable("insert into");
      const o = setOf(a[0] as Value);
      for (const [k, v] of [...o.map]) {
        if (s.map.has(k)) s.map.delete(k);
        else s.map.set(k, v);
      }
      return null;
    }),
  ],
  [
    "union",
    method<SSet>("union(*others)", (s, a) => {
      const r = new SSet(s.values());
      for (const o of others(a)) for (const x of iterate(o)) r.add(x);
      return r;
    }),
  ],
  [
    "update",
    method<SSet>("update(*others)", (s, a) => {
      s.checkMutable("insert into");
      for (const o of others(a)) for (const x of [...iterate(o)]) s.add(x);
      return null;
    }),
  ],
]);

export const bytesMethods = new Map<string, Method>([
  ["elems", method<Bytes>("elems()", (b) => new BytesElems(b.data))],
]);
