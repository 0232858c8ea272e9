// Running a file: scan, parse, resolve, compile, execute, then freeze the globals.
import { universe } from "./builtins/universe.js";
import { StarlarkSyntaxError } from "./errors.js";
import { Compiler } from "./eval/compile.js";
import { Frame } from "./eval/function.js";
import { Thread, type ThreadOptions } from "./eval/thread.js";
import type { Expr, FileAst } from "./syntax/ast.js";
import { parse, parseExpression } from "./syntax/parser.js";
import { resolve } from "./syntax/resolver.js";
import { freezeValue } from "./values/list.js";
import { Cell, type Value } from "./values/value.js";

export interface ExecOptions extends ThreadOptions {
  /** Accept `while` loops (not in the standard language). */
  allowWhile?: boolean;
  /** Accept `if`, `for` and `while` statements at the top level (the spec refuses them). */
  allowTopLevelControl?: boolean;
  /** Accept binding the same global twice. */
  allowGlobalReassign?: boolean;
  /** Run on this thread instead of a new one (its own options then apply). */
  thread?: Thread;
}

export interface ExecRequest {
  /** Used in every position: `file:line:col`. */
  file: string;
  source: string;
  /** The host's names, visible to the whole file (a file may shadow them with its own globals). */
  predeclared?: Readonly<Record<string, Value>> | ReadonlyMap<string, Value>;
  options?: ExecOptions;
}

export interface ModuleResult {
  /** The globals the file bound, frozen, in the order of their first binding. */
  globals: Map<string, Value>;
  thread: Thread;
}

function predeclaredMap(p: ExecRequest["predeclared"]): ReadonlyMap<string, Value> {
  if (p === undefined) return new Map();
  if (p instanceof Map) return p;
  return new Map(Object.entries(p as Record<string, Value>));
}

function run(ast: FileAst, req: ExecRequest): ModuleResult {
  const options = req.options ?? {};
  const pre = predeclaredMap(req.predeclared);
  const resolved = guardDepth(req.file, () =>
    resolve(ast, {
      predeclared: new Set(pre.keys()),
      universal: new Set(universe.keys()),
      allowTopLevelControl: options.allowTopLevelControl,
      allowGlobalReassign: options.allowGlobalReassign,
    }),
  );
  const globals: (Value | undefined)[] = new Array(resolved.globals.length);
  const compiler = new Compiler(req.file, globals, (name) => {
    const v = pre.has(name) ? pre.get(name) : universe.get(name);
    return v === undefined ? null : v;
  });
  const top = guardDepth(req.file, () => compiler.code(resolved.top));
  const thread = options.thread ?? new Thread(options);
  const fr = new Frame(thread, top, []);
  for (const slot of top.cellSlots) fr.locals[slot] = new Cell(undefined);
  try {
    top.body(fr);
  } finally {
    for (const v of globals) if (v !== undefined) freezeValue(v);
  }
  const out = new Map<string, Value>();
  resolved.globals.forEach((b, i) => {
    const v = globals[i];
    if (v !== undefined) out.set(b.name, v);
  });
  return { globals: out, thread };
}

/**
 * Executes a file. Throws {@link StarlarkSyntaxError} for a file that cannot run (syntax, names) and
 * {@link StarlarkEvalError} for a dynamic error, with the position and the Starlark call stack.
 */
export function execModule(req: ExecRequest): ModuleResult {
  return run(
    guardDepth(req.file, () => parse(req.source, req.file, { allowWhile: req.options?.allowWhile })),
    req,
  );
}

/** A file nested beyond what the recursive parser can follow is a syntax error, not a crash. */
function guardDepth<T>(file: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) {
      throw new StarlarkSyntaxError("syntax", [
        { pos: { file, line: 1, col: 1 }, message: "the file nests too deeply to parse" },
      ]);
    }
    throw e;
  }
}

/** Evaluates one expression with the given predeclared names and returns its value (frozen). */
export function evalExpression(req: ExecRequest): Value {
  const x: Expr = guardDepth(req.file, () => parseExpression(req.source, req.file));
  const name = "<result>";
  const ast: FileAst = {
    file: req.file,
    body: [
      {
        kind: "Assign",
        op: "=",
        lhs: { kind: "Ident", name, line: x.line, col: x.col },
        rhs: x,
        line: x.line,
        col: x.col,
      },
    ],
  };
  return run(ast, req).globals.get(name) ?? null;
}
