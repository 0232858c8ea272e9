// Static name resolution (the spec's "Name binding and variables"): every identifier gets its
// binding (local, cell, free, global, predeclared, universal) before anything runs; undefined names,
// global re-binding and misplaced statements are reported here.
import { type Diagnostic, StarlarkSyntaxError } from "../errors.js";
import type { Binding, Clause, Expr, FileAst, FunctionDef, Ident, Node, Stmt } from "./ast.js";

export interface ResolveOptions {
  /** Names of the host's predeclared values. */
  predeclared: ReadonlySet<string>;
  /** Names of the built-ins (the universe). */
  universal: ReadonlySet<string>;
  /** Accept `if`, `for` and `while` at the top level (the spec refuses them). */
  allowTopLevelControl?: boolean;
  /** Accept binding a global more than once. */
  allowGlobalReassign?: boolean;
}

/** The frame layout of one function (or of the top level). */
class FnScope {
  readonly locals: Binding[] = [];
  readonly freevars: Binding[] = [];
  private readonly freeOf = new Map<Binding, Binding>();
  constructor(
    readonly def: FunctionDef,
    readonly parent: FnScope | undefined,
  ) {}

  newLocal(name: string, first: Node): Binding {
    const b: Binding = { scope: "local", name, index: this.locals.length, first };
    this.locals.push(b);
    return b;
  }

  /** The binding through which this function reaches `outer`, a variable of an enclosing function. */
  free(outer: Binding, owner: FnScope): Binding {
    let b = this.freeOf.get(outer);
    if (b) return b;
    let via: Binding;
    if (this.parent === owner) {
      if (outer.scope === "local") outer.scope = "cell";
      via = outer;
    } else {
      via = (this.parent as FnScope).free(outer, owner);
    }
    b = { scope: "free", name: outer.name, index: this.freevars.length, outer: via };
    this.freevars.push(via);
    this.freeOf.set(outer, b);
    return b;
  }
}

class Block {
  readonly names = new Map<string, Binding>();
  constructor(
    readonly kind: "module" | "function" | "comp",
    readonly fn: FnScope,
    readonly parent: Block | undefined,
  ) {}
}

/** Edit distance counting an adjacent transposition as one edit (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    const row: number[] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        row.push(j);
        continue;
      }
      const prev = rows[i - 1] as number[];
      let d = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      }
      row.push(d);
    }
    rows.push(row);
  }
  return (rows[a.length] as number[])[b.length] as number;
}

class Resolver {
  private readonly diags: Diagnostic[] = [];
  readonly globals = new Map<string, Binding>();
  private readonly globalList: Binding[] = [];
  private loopDepth = 0;

  constructor(
    private readonly file: string,
    private readonly options: ResolveOptions,
  ) {}

  private error(at: Node, message: string): void {
    this.diags.push({ pos: { file: this.file, line: at.line, col: at.col }, message });
  }

  run(ast: FileAst, top: FunctionDef): { globals: Binding[] } {
    const fn = new FnScope(top, undefined);
    const block = new Block("module", fn, undefined);
    this.bindGlobals(ast.body);
    this.stmts(ast.body, block, true);
    top.numLocals = fn.locals.length;
    top.locals = fn.locals;
    top.freevars = [];
    if (this.diags.length > 0) {
      this.diags.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
      throw new StarlarkSyntaxError("resolve", this.diags);
    }
    return { globals: this.globalList };
  }

  // ---- phase A: the names a block binds

  private bindGlobals(body: Stmt[]): void {
    const bind = (id: Ident): void => {
      const prev = this.globals.get(id.name);
      if (prev) {
        if (!this.options.allowGlobalReassign) {
          const f = prev.first as Node;
          this.error(
            id,
            `cannot reassign global ${id.name} (first bound at ${this.file}:${f.line}:${f.col})`,
          );
        }
        return;
      }
      const b: Binding = { scope: "global", name: id.name, index: this.globalList.length, first: id };
      this.globals.set(id.name, b);
      this.globalList.push(b);
    };
    this.walkBindings(body, bind);
  }

  /** Calls `bind` for every identifier that `body` binds, in order, not entering functions. */
  private walkBindings(body: Stmt[], bind: (id: Ident) => void): void {
    for (const s of body) {
      switch (s.kind) {
        case "Assign":
          this.targetIdents(s.lhs, bind);
          break;
        case "Def":
          bind(s.ident);
          break;
        case "For":
          this.targetIdents(s.vars, bind);
          this.walkBindings(s.body, bind);
          break;
        case "While":
          this.walkBindings(s.body, bind);
          break;
        case "If":
          this.walkBindings(s.body, bind);
          this.walkBindings(s.orElse, bind);
          break;
        case "Load":
          for (const n of s.names) bind(n.local);
          break;
        default:
          break;
      }
    }
  }

  private targetIdents(x: Expr, bind: (id: Ident) => void): void {
    if (x.kind === "Ident") bind(x);
    else if (x.kind === "Tuple" || x.kind === "List") for (const e of x.elems) this.targetIdents(e, bind);
  }

  // ---- phase B: uses

  private lookup(id: Ident, block: Block): void {
    const fn = block.fn;
    for (let b: Block | undefined = block; b; b = b.parent) {
      if (b.kind === "module") {
        const g = this.globals.get(id.name);
        if (g) {
          id.binding = g;
          return;
        }
        break;
      }
      const found = b.names.get(id.name);
      if (found) {
        id.binding = b.fn === fn ? found : fn.free(found, b.fn);
        return;
      }
    }
    if (this.options.predeclared.has(id.name)) {
      id.binding = { scope: "predeclared", name: id.name, index: -1 };
    } else if (this.options.universal.has(id.name)) {
      id.binding = { scope: "universal", name: id.name, index: -1 };
    } else {
      this.error(id, `undefined: ${id.name}${this.suggest(id.name, block)}`);
    }
  }

  private suggest(name: string, block: Block): string {
    const candidates = new Set<string>([
      ...this.globals.keys(),
      ...this.options.predeclared,
      ...this.options.universal,
    ]);
    for (let b: Block | undefined = block; b; b = b.parent) for (const n of b.names.keys()) candidates.add(n);
    let best = "";
    // a suggestion must be close: none for names of one or two characters
    let bestD = (name.length <= 2 ? 0 : name.length <= 5 ? 1 : 2) + 1;
    for (const c of candidates) {
      const d = editDistance(name, c);
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    return best ? ` (did you mean ${best}?)` : "";
  }

  private stmts(body: Stmt[], block: Block, topLevel: boolean): void {
    for (const s of body) this.stmt(s, block, topLevel);
  }

  private stmt(s: Stmt, block: Block, topLevel: boolean): void {
    const control = (what: string): void => {
      if (topLevel && !this.options.allowTopLevelControl) {
        this.error(
          s,
          `${what} statement not within a function (enable top-level control flow with the allowTopLevelControl option)`,
        );
      }
    };
    switch (s.kind) {
      case "Expr":
        this.expr(s.x, block);
        return;
      case "Assign":
        this.expr(s.rhs, block);
        this.target(s.lhs, block);
        return;
      case "Def":
        this.lookup(s.ident, block);
        this.function(s.fn, block);
        return;
      case "If":
        control("if");
        this.expr(s.cond, block);
        this.stmts(s.body, block, topLevel);
        this.stmts(s.orElse, block, topLevel);
        return;
      case "For":
        control("for");
        this.expr(s.iter, block);
        this.target(s.vars, block);
        this.loopDepth++;
        this.stmts(s.body, block, topLevel);
        this.loopDepth--;
        return;
      case "While":
        control("while");
        this.expr(s.cond, block);
        this.loopDepth++;
        this.stmts(s.body, block, topLevel);
        this.loopDepth--;
        return;
      case "Return":
        if (block.kind === "module") this.error(s, "return statement not within a function");
        if (s.x) this.expr(s.x, block);
        return;
      case "Break":
      case "Continue":
        if (this.loopDepth === 0) this.error(s, `${s.kind.toLowerCase()} not in a loop`);
        return;
      case "Pass":
        return;
      case "Load":
        this.error(
          s,
          `load statements are not supported: a script is a single file (cannot load ${JSON.stringify(s.module)})`,
        );
        return;
    }
  }

  /** An assignment target: identifiers are bindings of this block, the rest are uses. */
  private target(x: Expr, block: Block): void {
    switch (x.kind) {
      case "Ident":
        this.lookup(x, block);
        return;
      case "Tuple":
      case "List":
        for (const e of x.elems) this.target(e, block);
        return;
      default:
        this.expr(x, block);
    }
  }

  private function(def: FunctionDef, parent: Block): void {
    for (const p of def.params) if (p.default) this.expr(p.default, parent);
    const fn = new FnScope(def, parent.fn);
    const block = new Block("function", fn, parent);
    // slots: the named parameters (positional, then keyword-only), then *args, then **kwargs
    const ordered = [
      ...def.params.filter((p) => p.kind === "required" || p.kind === "optional"),
      ...def.params.filter((p) => p.kind === "star"),
      ...def.params.filter((p) => p.kind === "starstar"),
    ];
    for (const p of ordered) {
      if (p.ident) {
        const b = fn.newLocal(p.ident.name, p.ident);
        block.names.set(p.ident.name, b);
        p.ident.binding = b;
      }
    }
    this.walkBindings(def.body, (id) => {
      if (!block.names.has(id.name)) block.names.set(id.name, fn.newLocal(id.name, id));
    });
    const savedLoops = this.loopDepth;
    this.loopDepth = 0;
    this.stmts(def.body, block, false);
    this.loopDepth = savedLoops;
    def.numLocals = fn.locals.length;
    def.locals = fn.locals;
    def.freevars = fn.freevars;
  }

  private expr(x: Expr, block: Block): void {
    switch (x.kind) {
      case "Ident":
        this.lookup(x, block);
        return;
      case "Literal":
        return;
      case "List":
      case "Tuple":
        for (const e of x.elems) this.expr(e, block);
        return;
      case "Dict":
        for (const e of x.entries) {
          this.expr(e.key, block);
          this.expr(e.value, block);
        }
        return;
      case "Comp":
        this.comprehension(x.clauses, x.body, x.value, block);
        return;
      case "Unary":
        this.expr(x.x, block);
        return;
      case "Binary":
        this.expr(x.x, block);
        this.expr(x.y, block);
        return;
      case "Cond":
        this.expr(x.cond, block);
        this.expr(x.whenTrue, block);
        this.expr(x.whenFalse, block);
        return;
      case "Call": {
        this.expr(x.fn, block);
        const seen = new Set<string>();
        for (const a of x.args) {
          if (a.kind === "named") {
            const name = a.name as string;
            if (seen.has(name)) this.error(a, `duplicate keyword argument: ${name}`);
            seen.add(name);
          }
          this.expr(a.value, block);
        }
        return;
      }
      case "Dot":
        this.expr(x.x, block);
        return;
      case "Index":
        this.expr(x.x, block);
        this.expr(x.index, block);
        return;
      case "Slice":
        this.expr(x.x, block);
        if (x.lo) this.expr(x.lo, block);
        if (x.hi) this.expr(x.hi, block);
        if (x.step) this.expr(x.step, block);
        return;
      case "Lambda":
        this.function(x.fn, block);
        return;
    }
  }

  private comprehension(clauses: Clause[], body: Expr, value: Expr | undefined, parent: Block): void {
    const first = clauses[0];
    if (first?.kind !== "for") return;
    // the first operand is resolved in the enclosing block, the rest in the comprehension's own
    this.expr(first.iter, parent);
    const block = new Block("comp", parent.fn, parent);
    for (const c of clauses) {
      if (c.kind === "for") {
        this.targetIdents(c.vars, (id) => {
          if (!block.names.has(id.name)) block.names.set(id.name, parent.fn.newLocal(id.name, id));
        });
      }
    }
    for (const c of clauses) {
      if (c.kind === "for") {
        if (c !== first) this.expr(c.iter, block);
        this.target(c.vars, block);
      } else {
        this.expr(c.cond, block);
      }
    }
    this.expr(body, block);
    if (value) this.expr(value, block);
  }
}

export interface ResolvedFile {
  ast: FileAst;
  /** The top level as a function: its locals are the comprehension variables of the top level. */
  top: FunctionDef;
  /** The globals, by slot. */
  globals: Binding[];
}

/** Resolves the names of a parsed file. Throws {@link StarlarkSyntaxError} (kind `resolve`) listing every problem. */
export function resolve(ast: FileAst, options: ResolveOptions): ResolvedFile {
  const top: FunctionDef = { name: "<toplevel>", params: [], body: ast.body, line: 1, col: 1 };
  const { globals } = new Resolver(ast.file, options).run(ast, top);
  return { ast, top, globals };
}
