// The evaluator: the resolved syntax tree is compiled once into JS closures (one per node, with
// the binding of every name, the operator and the shape of every call decided at compile time),
// which then run without looking at the tree again.
import { StarlarkError } from "../errors.js";
import type {
  Binary,
  Call,
  Clause,
  Comprehension,
  Expr,
  FunctionDef,
  Ident,
  Node,
  Stmt,
} from "../syntax/ast.js";
import { compare, equals } from "../values/compare.js";
import { Dict, SSet } from "../values/dict.js";
import { repr } from "../values/format.js";
import { List, Tuple, tuple } from "../values/list.js";
import {
  add,
  bitAnd,
  bitOr,
  bitXor,
  contains,
  div,
  floorDiv,
  index,
  inPlace,
  invert,
  iterate,
  mod,
  mul,
  negate,
  plus,
  setIndex,
  shl,
  shr,
  slice,
  sub,
  toArray,
} from "../values/ops.js";
import { Range } from "../values/range.js";
import { Cell, type Mutable, truth, typeName, type Value } from "../values/value.js";
import { getAttr, methodsOf, setAttr } from "./attr.js";
import { bindSignature, type Method } from "./builtin.js";
import {
  BREAK,
  Code,
  type CStmt,
  Frame,
  type ModuleContext,
  NORMAL,
  RETURN,
  StarlarkFunction,
} from "./function.js";
import { evalError, locate, locateCall } from "./locate.js";
import { callValue } from "./thread.js";

type CExpr = (fr: Frame) => Value;
type CStore = (fr: Frame, v: Value) => void;

const MAX = Number.MAX_SAFE_INTEGER;

const binaryFns: Record<string, (a: Value, b: Value) => Value> = {
  "+": add,
  "-": sub,
  "*": mul,
  "/": div,
  "//": floorDiv,
  "%": mod,
  "|": bitOr,
  "&": bitAnd,
  "^": bitXor,
  "<<": shl,
  ">>": shr,
};

function unpack(v: Value, n: number): readonly Value[] {
  if (typeof v === "string")
    throw new StarlarkError(`cannot unpack string into ${n} values (a string is not iterable)`);
  let items: readonly Value[];
  try {
    items = toArray(v);
  } catch {
    throw new StarlarkError(`cannot unpack ${typeName(v)} into ${n} values (not iterable)`);
  }
  if (items.length !== n) {
    throw new StarlarkError(
      `${items.length > n ? "too many" : "not enough"} values to unpack (got ${items.length}, want ${n})`,
    );
  }
  return items;
}

/** The elements a `for` loop or comprehension visits, and the container to mark busy meanwhile. */
function loopElems(it: Value): { elems: readonly Value[]; owner: Mutable | null } {
  if (it instanceof List) return { elems: it.elems, owner: it };
  if (it instanceof Tuple) return { elems: it.elems, owner: null };
  if (it instanceof Dict) return { elems: it.keys(), owner: it };
  if (it instanceof SSet) return { elems: it.values(), owner: it };
  return { elems: [...iterate(it)], owner: null };
}

function step(fr: Frame, at: Node): void {
  const th = fr.thread;
  if (++th.steps >= th.checkAt) {
    try {
      th.checkpoint();
    } catch (e) {
      throw locate(e, fr, at);
    }
  }
}

export interface CompiledModule {
  top: Code;
  /** Module globals by slot (undefined until bound). */
  globals: (Value | undefined)[];
}

export class Compiler {
  readonly module: ModuleContext;
  constructor(
    readonly file: string,
    readonly globals: (Value | undefined)[],
    /** The value of a predeclared or universal name. */
    readonly predeclared: (name: string) => Value,
  ) {
    this.module = { globals };
  }

  code(def: FunctionDef): Code {
    const params = def.params;
    const named = params.filter((p) => p.kind === "required" || p.kind === "optional");
    const starAt = params.findIndex((p) => p.kind === "star");
    const numPositional =
      starAt < 0 ? named.length : params.slice(0, starAt).filter((p) => p.kind !== "starstar").length;
    const hasVarargs = params.some((p) => p.kind === "star" && p.name !== undefined);
    const hasKwargs = params.some((p) => p.kind === "starstar");
    const varargs = hasVarargs ? named.length : -1;
    const kwargs = hasKwargs ? named.length + (hasVarargs ? 1 : 0) : -1;
    const cellSlots = (def.locals ?? []).filter((b) => b.scope === "cell").map((b) => b.index);
    const code = new Code(
      def.name,
      this.file,
      def.line,
      def.col,
      named.map((p) => p.name as string),
      numPositional,
      varargs,
      kwargs,
      def.numLocals ?? 0,
      cellSlots,
    );
    code.body = this.block(def.body);
    return code;
  }

  /** Compiles a `def` or `lambda` into a maker of function values (run where the definition executes). */
  private makeFunction(def: FunctionDef): CExpr {
    const code = this.code(def);
    const named = def.params.filter((p) => p.kind === "required" || p.kind === "optional");
    const defaults = named.map((p) => (p.default ? this.expr(p.default) : undefined));
    const anyDefault = defaults.some((d) => d !== undefined);
    const free = (def.freevars ?? []).map((b): ((fr: Frame) => Cell) => {
      const i = b.index;
      return b.scope === "cell" ? (fr) => fr.locals[i] as Cell : (fr) => fr.free[i] as Cell;
    });
    const module = this.module;
    const noDefaults: (Value | undefined)[] = new Array(named.length).fill(undefined);
    return (fr) => {
      const d = anyDefault ? defaults.map((e) => (e ? e(fr) : undefined)) : noDefaults;
      const cells = free.length === 0 ? [] : free.map((g) => g(fr));
      return new StarlarkFunction(code, d, cells, module);
    };
  }

  // ---- statements

  block(stmts: Stmt[]): CStmt {
    const cs = stmts.map((s) => this.stmt(s));
    if (cs.length === 0) return () => NORMAL;
    if (cs.length === 1) return cs[0] as CStmt;
    if (cs.length === 2) {
      const [a, b] = cs as [CStmt, CStmt];
      return (fr) => a(fr) || b(fr);
    }
    if (cs.length === 3) {
      const [a, b, c] = cs as [CStmt, CStmt, CStmt];
      return (fr) => a(fr) || b(fr) || c(fr);
    }
    return (fr) => {
      for (let i = 0; i < cs.length; i++) {
        const r = (cs[i] as CStmt)(fr);
        if (r !== NORMAL) return r;
      }
      return NORMAL;
    };
  }

  private stmt(s: Stmt): CStmt {
    switch (s.kind) {
      case "Expr": {
        const e = this.expr(s.x);
        return (fr) => {
          e(fr);
          return NORMAL;
        };
      }
      case "Assign":
        return s.op === "=" ? this.assign(s.lhs, s.rhs) : this.augmented(s.op.slice(0, -1), s.lhs, s.rhs, s);
      case "Def": {
        const make = this.makeFunction(s.fn);
        const store = this.target(s.ident);
        return (fr) => {
          store(fr, make(fr));
          return NORMAL;
        };
      }
      case "If": {
        const c = this.expr(s.cond);
        const t = this.block(s.body);
        const o = this.block(s.orElse);
        return (fr) => (truth(c(fr)) ? t(fr) : o(fr));
      }
      case "For":
        return this.forLoop(s.vars, s.iter, this.block(s.body), s);
      case "While": {
        const c = this.expr(s.cond);
        const body = this.block(s.body);
        return (fr) => {
          while (truth(c(fr))) {
            step(fr, s);
            const r = body(fr);
            if (r === BREAK) break;
            if (r === RETURN) return RETURN;
          }
          return NORMAL;
        };
      }
      case "Return": {
        if (s.x === undefined) {
          return (fr) => {
            fr.ret = null;
            return RETURN;
          };
        }
        const e = this.expr(s.x);
        return (fr) => {
          fr.ret = e(fr);
          return RETURN;
        };
      }
      case "Break":
        return () => BREAK;
      case "Continue":
        return () => 2;
      case "Pass":
        return () => NORMAL;
      case "Load":
        throw new StarlarkError("load statements are not supported");
    }
  }

  private assign(lhs: Expr, rhs: Expr): CStmt {
    const r = this.expr(rhs);
    if (lhs.kind === "Ident" && lhs.binding?.scope === "local") {
      const i = lhs.binding.index;
      return (fr) => {
        fr.locals[i] = r(fr);
        return NORMAL;
      };
    }
    const store = this.target(lhs);
    return (fr) => {
      store(fr, r(fr));
      return NORMAL;
    };
  }

  private augmented(op: string, lhs: Expr, rhs: Expr, at: Node): CStmt {
    const r = this.expr(rhs);
    const apply = (fr: Frame, a: Value, b: Value): Value => {
      try {
        return inPlace(op, a, b);
      } catch (e) {
        throw locate(e, fr, at);
      }
    };
    if (lhs.kind === "Ident") {
      const b = lhs.binding;
      if (b?.scope === "local") {
        const i = b.index;
        const name = lhs.name;
        if (op === "+") {
          return (fr) => {
            const a = fr.locals[i] as Value | undefined;
            if (a === undefined)
              throw evalError(fr, lhs, `local variable ${name} referenced before assignment`);
            const y = r(fr);
            if (typeof a === "number" && typeof y === "number") {
              const s = a + y;
              if (s <= MAX && s >= -MAX) {
                fr.locals[i] = s;
                return NORMAL;
              }
            }
            fr.locals[i] = apply(fr, a, y);
            return NORMAL;
          };
        }
        return (fr) => {
          const a = fr.locals[i] as Value | undefined;
          if (a === undefined)
            throw evalError(fr, lhs, `local variable ${name} referenced before assignment`);
          fr.locals[i] = apply(fr, a, r(fr));
          return NORMAL;
        };
      }
      if (b?.scope === "global") {
        const g = this.globals;
        const i = b.index;
        const name = lhs.name;
        return (fr) => {
          const a = g[i];
          if (a === undefined)
            throw evalError(fr, lhs, `global variable ${name} referenced before assignment`);
          const y = r(fr);
          if (op === "+" && typeof a === "number" && typeof y === "number") {
            const s = a + y;
            if (s <= MAX && s >= -MAX) {
              g[i] = s;
              return NORMAL;
            }
          }
          g[i] = apply(fr, a, y);
          return NORMAL;
        };
      }
      const load = this.expr(lhs);
      const store = this.target(lhs);
      return (fr) => {
        const a = load(fr);
        store(fr, apply(fr, a, r(fr)));
        return NORMAL;
      };
    }
    if (lhs.kind === "Index") {
      const obj = this.expr(lhs.x);
      const key = this.expr(lhs.index);
      return (fr) => {
        const o = obj(fr);
        const k = key(fr);
        let cur: Value;
        try {
          cur = index(o, k);
        } catch (e) {
          throw locate(e, fr, lhs);
        }
        const v = apply(fr, cur, r(fr));
        try {
          setIndex(o, k, v);
        } catch (e) {
          throw locate(e, fr, lhs);
        }
        return NORMAL;
      };
    }
    if (lhs.kind === "Dot") {
      const obj = this.expr(lhs.x);
      const name = lhs.name;
      return (fr) => {
        const o = obj(fr);
        let cur: Value;
        try {
          cur = getAttr(o, name);
        } catch (e) {
          throw locate(e, fr, lhs);
        }
        const v = apply(fr, cur, r(fr));
        try {
          setAttr(o, name, v);
        } catch (e) {
          throw locate(e, fr, lhs);
        }
        return NORMAL;
      };
    }
    throw new StarlarkError(`invalid augmented assignment target ${lhs.kind}`);
  }

  private forLoop(vars: Expr, iterExpr: Expr, body: CStmt, at: Node): CStmt {
    const iter = this.expr(iterExpr);
    const store = this.target(vars);
    return (fr) => {
      const it = iter(fr);
      const th = fr.thread;
      if (it instanceof Range) {
        const n = it.length;
        const start = it.start;
        const stride = it.step;
        for (let k = 0; k < n; k++) {
          store(fr, start + k * stride);
          if (++th.steps >= th.checkAt) step(fr, at);
          const r = body(fr);
          if (r !== NORMAL) {
            if (r === BREAK) break;
            if (r === RETURN) return RETURN;
          }
        }
        return NORMAL;
      }
      let loop: { elems: readonly Value[]; owner: Mutable | null };
      try {
        loop = loopElems(it);
      } catch (e) {
        throw locate(e, fr, iterExpr);
      }
      const { elems, owner } = loop;
      if (owner) owner.iters++;
      try {
        for (let k = 0; k < elems.length; k++) {
          store(fr, elems[k] as Value);
          if (++th.steps >= th.checkAt) step(fr, at);
          const r = body(fr);
          if (r !== NORMAL) {
            if (r === BREAK) break;
            if (r === RETURN) return RETURN;
          }
        }
      } finally {
        if (owner) owner.iters--;
      }
      return NORMAL;
    };
  }

  // ---- assignment targets

  private target(x: Expr): CStore {
    switch (x.kind) {
      case "Ident": {
        const b = x.binding;
        if (b === undefined) throw new StarlarkError(`unresolved name ${x.name}`);
        const i = b.index;
        switch (b.scope) {
          case "local":
            return (fr, v) => {
              fr.locals[i] = v;
            };
          case "cell":
            return (fr, v) => {
              (fr.locals[i] as Cell).v = v;
            };
          case "global": {
            const g = this.globals;
            return (_fr, v) => {
              g[i] = v;
            };
          }
          default:
            throw new StarlarkError(`cannot assign to ${b.scope} name ${x.name}`);
        }
      }
      case "Index": {
        const obj = this.expr(x.x);
        const key = this.expr(x.index);
        return (fr, v) => {
          const o = obj(fr);
          const k = key(fr);
          try {
            setIndex(o, k, v);
          } catch (e) {
            throw locate(e, fr, x);
          }
        };
      }
      case "Dot": {
        const obj = this.expr(x.x);
        const name = x.name;
        return (fr, v) => {
          const o = obj(fr);
          try {
            setAttr(o, name, v);
          } catch (e) {
            throw locate(e, fr, x);
          }
        };
      }
      case "Tuple":
      case "List": {
        const subs = x.elems.map((e) => this.target(e));
        const n = subs.length;
        return (fr, v) => {
          let items: readonly Value[];
          try {
            items = unpack(v, n);
          } catch (e) {
            throw locate(e, fr, x);
          }
          for (let k = 0; k < n; k++) (subs[k] as CStore)(fr, items[k] as Value);
        };
      }
      default:
        throw new StarlarkError(`cannot assign to ${x.kind}`);
    }
  }

  // ---- expressions

  expr(x: Expr): CExpr {
    switch (x.kind) {
      case "Ident":
        return this.ident(x);
      case "Literal": {
        const v = x.value;
        return () => v;
      }
      case "List": {
        const es = x.elems.map((e) => this.expr(e));
        return (fr) => {
          const a: Value[] = new Array(es.length);
          for (let k = 0; k < es.length; k++) a[k] = (es[k] as CExpr)(fr);
          return new List(a);
        };
      }
      case "Tuple": {
        const es = x.elems.map((e) => this.expr(e));
        if (es.length === 0) return () => tuple([]);
        return (fr) => {
          const a: Value[] = new Array(es.length);
          for (let k = 0; k < es.length; k++) a[k] = (es[k] as CExpr)(fr);
          return new Tuple(a);
        };
      }
      case "Dict": {
        const entries = x.entries.map((e) => ({
          key: this.expr(e.key),
          value: this.expr(e.value),
          at: e.key,
        }));
        return (fr) => {
          const d = new Dict();
          for (const e of entries) {
            const k = e.key(fr);
            const v = e.value(fr);
            try {
              if (d.has(k)) throw new StarlarkError(`duplicate key: ${repr(k)}`);
              d.set(k, v);
            } catch (err) {
              throw locate(err, fr, e.at);
            }
          }
          return d;
        };
      }
      case "Comp":
        return this.comprehension(x);
      case "Unary":
        return this.unary(x.op, this.expr(x.x), x);
      case "Binary":
        return this.binary(x);
      case "Cond": {
        const c = this.expr(x.cond);
        const t = this.expr(x.whenTrue);
        const o = this.expr(x.whenFalse);
        return (fr) => (truth(c(fr)) ? t(fr) : o(fr));
      }
      case "Call":
        return this.call(x);
      case "Dot": {
        const obj = this.expr(x.x);
        const name = x.name;
        return (fr) => {
          const o = obj(fr);
          try {
            return getAttr(o, name);
          } catch (e) {
            throw locate(e, fr, x);
          }
        };
      }
      case "Index": {
        const obj = this.expr(x.x);
        const key = this.expr(x.index);
        return (fr) => {
          const o = obj(fr);
          const k = key(fr);
          if (o instanceof List && typeof k === "number" && k >= 0 && k < o.elems.length)
            return o.elems[k] as Value;
          try {
            return index(o, k);
          } catch (e) {
            throw locate(e, fr, x);
          }
        };
      }
      case "Slice": {
        const obj = this.expr(x.x);
        const none: CExpr = () => null;
        const lo = x.lo ? this.expr(x.lo) : none;
        const hi = x.hi ? this.expr(x.hi) : none;
        const st = x.step ? this.expr(x.step) : none;
        return (fr) => {
          const o = obj(fr);
          const a = lo(fr);
          const b = hi(fr);
          const c = st(fr);
          try {
            return slice(o, a, b, c);
          } catch (e) {
            throw locate(e, fr, x);
          }
        };
      }
      case "Lambda":
        return this.makeFunction(x.fn);
    }
  }

  private ident(id: Ident): CExpr {
    const b = id.binding;
    if (b === undefined) throw new StarlarkError(`unresolved name ${id.name}`);
    const i = b.index;
    const name = id.name;
    switch (b.scope) {
      case "local":
        return (fr) => {
          const v = fr.locals[i];
          if (v === undefined) throw evalError(fr, id, `local variable ${name} referenced before assignment`);
          return v as Value;
        };
      case "cell":
        return (fr) => {
          const v = (fr.locals[i] as Cell).v;
          if (v === undefined) throw evalError(fr, id, `local variable ${name} referenced before assignment`);
          return v;
        };
      case "free":
        return (fr) => {
          const v = (fr.free[i] as Cell).v;
          if (v === undefined) throw evalError(fr, id, `local variable ${name} referenced before assignment`);
          return v;
        };
      case "global": {
        const g = this.globals;
        return (fr) => {
          const v = g[i];
          if (v === undefined)
            throw evalError(fr, id, `global variable ${name} referenced before assignment`);
          return v;
        };
      }
      default: {
        const v = this.predeclared(name);
        return () => v;
      }
    }
  }

  private unary(op: string, x: CExpr, at: Node): CExpr {
    if (op === "not") return (fr) => !truth(x(fr));
    const f = op === "-" ? negate : op === "+" ? plus : invert;
    if (op === "-") {
      return (fr) => {
        const a = x(fr);
        if (typeof a === "number") return a === 0 ? 0 : -a;
        try {
          return f(a);
        } catch (e) {
          throw locate(e, fr, at);
        }
      };
    }
    return (fr) => {
      const a = x(fr);
      try {
        return f(a);
      } catch (e) {
        throw locate(e, fr, at);
      }
    };
  }

  private binary(b: Binary): CExpr {
    const x = this.expr(b.x);
    const y = this.expr(b.y);
    switch (b.op) {
      case "and":
        return (fr) => {
          const a = x(fr);
          return truth(a) ? y(fr) : a;
        };
      case "or":
        return (fr) => {
          const a = x(fr);
          return truth(a) ? a : y(fr);
        };
      case "==":
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          if (a === c) return true;
          try {
            return equals(a, c);
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      case "!=":
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          if (a === c) return false;
          try {
            return !equals(a, c);
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      case "<":
      case "<=":
      case ">":
      case ">=": {
        const op = b.op;
        const test =
          op === "<"
            ? (c: number) => c < 0
            : op === "<="
              ? (c: number) => c <= 0
              : op === ">"
                ? (c: number) => c > 0
                : (c: number) => c >= 0;
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          if (typeof a === "number" && typeof c === "number") return test(a - c);
          try {
            return test(compare(a, c, op));
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      }
      case "in":
      case "not in": {
        const negated = b.op === "not in";
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          try {
            return contains(c, a) !== negated;
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      }
      case "+":
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          if (typeof a === "number" && typeof c === "number") {
            const s = a + c;
            if (s <= MAX && s >= -MAX) return s;
          } else if (typeof a === "string" && typeof c === "string" && a.length + c.length < 1 << 28) {
            return a + c;
          }
          try {
            return add(a, c);
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      case "-":
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          if (typeof a === "number" && typeof c === "number") {
            const s = a - c;
            if (s <= MAX && s >= -MAX) return s;
          }
          try {
            return sub(a, c);
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      case "*":
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          if (typeof a === "number" && typeof c === "number") {
            const p = a * c;
            if (p <= MAX && p >= -MAX) return p === 0 ? 0 : p;
          }
          try {
            return mul(a, c);
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      case "%":
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          if (typeof a === "number" && typeof c === "number" && c > 0 && a >= 0) return a % c;
          try {
            return mod(a, c);
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      default: {
        const f = binaryFns[b.op];
        if (f === undefined) throw new StarlarkError(`unknown binary operator ${b.op}`);
        return (fr) => {
          const a = x(fr);
          const c = y(fr);
          try {
            return f(a, c);
          } catch (e) {
            throw locate(e, fr, b);
          }
        };
      }
    }
  }

  private comprehension(c: Comprehension): CExpr {
    if (c.dict) {
      const key = this.expr(c.body);
      const value = this.expr(c.value as Expr);
      const emit = (fr: Frame, acc: unknown): void => {
        const k = key(fr);
        const v = value(fr);
        try {
          (acc as Dict).set(k, v);
        } catch (e) {
          throw locate(e, fr, c.body);
        }
      };
      const loops = this.clauses(c.clauses, 0, emit);
      return (fr) => {
        const d = new Dict();
        loops(fr, d);
        return d;
      };
    }
    const body = this.expr(c.body);
    const emit = (fr: Frame, acc: unknown): void => {
      (acc as Value[]).push(body(fr));
    };
    const loops = this.clauses(c.clauses, 0, emit);
    return (fr) => {
      const acc: Value[] = [];
      loops(fr, acc);
      return new List(acc);
    };
  }

  private clauses(
    clauses: Clause[],
    i: number,
    emit: (fr: Frame, acc: unknown) => void,
  ): (fr: Frame, acc: unknown) => void {
    const c = clauses[i];
    if (c === undefined) return emit;
    const inner = this.clauses(clauses, i + 1, emit);
    if (c.kind === "if") {
      const cond = this.expr(c.cond);
      return (fr, acc) => {
        if (truth(cond(fr))) inner(fr, acc);
      };
    }
    const iter = this.expr(c.iter);
    const store = this.target(c.vars);
    const at = c.iter;
    return (fr, acc) => {
      const it = iter(fr);
      const th = fr.thread;
      if (it instanceof Range) {
        for (let k = 0; k < it.length; k++) {
          store(fr, it.start + k * it.step);
          if (++th.steps >= th.checkAt) step(fr, at);
          inner(fr, acc);
        }
        return;
      }
      let loop: { elems: readonly Value[]; owner: Mutable | null };
      try {
        loop = loopElems(it);
      } catch (e) {
        throw locate(e, fr, at);
      }
      const { elems, owner } = loop;
      if (owner) owner.iters++;
      try {
        for (let k = 0; k < elems.length; k++) {
          store(fr, elems[k] as Value);
          if (++th.steps >= th.checkAt) step(fr, at);
          inner(fr, acc);
        }
      } finally {
        if (owner) owner.iters--;
      }
    };
  }

  private call(c: Call): CExpr {
    const hasStar = c.args.some((a) => a.kind === "star" || a.kind === "starstar");
    if (!hasStar) {
      const pos = c.args.filter((a) => a.kind === "pos").map((a) => this.expr(a.value));
      const named = c.args.filter((a) => a.kind === "named");
      const argEs = [...pos, ...named.map((a) => this.expr(a.value))];
      const kw = named.length > 0 ? named.map((a) => a.name as string) : null;
      const n = argEs.length;
      if (c.fn.kind === "Dot") {
        const recvE = this.expr(c.fn.x);
        const name = c.fn.name;
        const dot = c.fn;
        return (fr) => {
          const recv = recvE(fr);
          const m = methodsOf(recv)?.get(name);
          let fn: Value = null;
          if (m === undefined) {
            try {
              fn = getAttr(recv, name);
            } catch (e) {
              throw locate(e, fr, dot);
            }
          }
          const args: Value[] = new Array(n);
          for (let k = 0; k < n; k++) args[k] = (argEs[k] as CExpr)(fr);
          try {
            return m !== undefined
              ? m.impl(recv, bindSignature(m.sig, args, kw), fr.thread)
              : callValue(fn, fr.thread, args, kw);
          } catch (e) {
            throw locateCall(e, fr, c);
          }
        };
      }
      const fnE = this.expr(c.fn);
      return (fr) => {
        const f = fnE(fr);
        const args: Value[] = new Array(n);
        for (let k = 0; k < n; k++) args[k] = (argEs[k] as CExpr)(fr);
        try {
          return callValue(f, fr.thread, args, kw);
        } catch (e) {
          throw locateCall(e, fr, c);
        }
      };
    }
    // the general case: *args and **kwargs spread at run time
    const parts = c.args.map((a) => ({ kind: a.kind, name: a.name, value: this.expr(a.value), at: a }));
    const method = c.fn.kind === "Dot" ? { recv: this.expr(c.fn.x), name: c.fn.name } : undefined;
    const fnE = method ? undefined : this.expr(c.fn);
    return (fr) => {
      let recv: Value = null;
      let m: Method | undefined;
      let f: Value = null;
      if (method) {
        recv = method.recv(fr);
        m = methodsOf(recv)?.get(method.name);
        if (m === undefined) {
          try {
            f = getAttr(recv, method.name);
          } catch (e) {
            throw locate(e, fr, c.fn);
          }
        }
      } else {
        f = (fnE as CExpr)(fr);
      }
      const positional: Value[] = [];
      const kwvals: Value[] = [];
      const kwnames: string[] = [];
      for (const p of parts) {
        const v = p.value(fr);
        if (p.kind === "pos") positional.push(v);
        else if (p.kind === "named") {
          kwnames.push(p.name as string);
          kwvals.push(v);
        } else if (p.kind === "star") {
          let items: readonly Value[];
          try {
            if (typeof v === "string") throw new StarlarkError("a string is not iterable");
            items = toArray(v);
          } catch {
            throw evalError(fr, p.at, `argument after * must be iterable, not ${typeName(v)}`);
          }
          for (const item of items) positional.push(item);
        } else {
          if (!(v instanceof Dict))
            throw evalError(fr, p.at, `argument after ** must be a dict, not ${typeName(v)}`);
          for (const e of v.entries()) {
            if (typeof e.k !== "string")
              throw evalError(fr, p.at, `keywords must be strings, not ${typeName(e.k)}`);
            kwnames.push(e.k);
            kwvals.push(e.v);
          }
        }
      }
      const args = kwvals.length > 0 ? positional.concat(kwvals) : positional;
      const names = kwnames.length > 0 ? kwnames : null;
      try {
        return m !== undefined
          ? m.impl(recv, bindSignature(m.sig, args, names), fr.thread)
          : callValue(f, fr.thread, args, names);
      } catch (e) {
        throw locateCall(e, fr, c);
      }
    };
  }
}

export { Cell, Frame };
