// The syntax tree. Every node carries the 1-based line and column where it starts; the resolver
// annotates identifiers with their bindings and functions with their frame layout.
import type { Value } from "../values/value.js";

export interface Node {
  line: number;
  col: number;
}

/** Where a name lives at run time, decided by the resolver. */
export interface Binding {
  scope: "local" | "cell" | "free" | "global" | "predeclared" | "universal";
  name: string;
  /** local/cell: slot in the frame; free: index in the closure; global: slot in the module. */
  index: number;
  /** free: the binding captured from the enclosing function. */
  outer?: Binding;
  /** Where the name is first bound (for messages), when it is bound in the file. */
  first?: Node;
}

export interface Ident extends Node {
  kind: "Ident";
  name: string;
  binding?: Binding;
}

export interface Literal extends Node {
  kind: "Literal";
  value: Value;
}

export interface ListExpr extends Node {
  kind: "List";
  elems: Expr[];
}

export interface TupleExpr extends Node {
  kind: "Tuple";
  elems: Expr[];
  parens: boolean;
}

export interface DictExpr extends Node {
  kind: "Dict";
  entries: { key: Expr; value: Expr }[];
}

export type Clause = ({ kind: "for"; vars: Expr; iter: Expr } | { kind: "if"; cond: Expr }) & Node;

export interface Comprehension extends Node {
  kind: "Comp";
  /** The element (list) or the key and value (dict). */
  body: Expr;
  value?: Expr;
  dict: boolean;
  clauses: Clause[];
}

export interface Unary extends Node {
  kind: "Unary";
  op: "+" | "-" | "~" | "not";
  x: Expr;
}

export interface Binary extends Node {
  kind: "Binary";
  op: string;
  x: Expr;
  y: Expr;
}

export interface CondExpr extends Node {
  kind: "Cond";
  cond: Expr;
  whenTrue: Expr;
  whenFalse: Expr;
}

export interface Arg extends Node {
  kind: "pos" | "named" | "star" | "starstar";
  name?: string;
  value: Expr;
}

export interface Call extends Node {
  kind: "Call";
  fn: Expr;
  args: Arg[];
}

export interface Dot extends Node {
  kind: "Dot";
  x: Expr;
  name: string;
}

export interface IndexExpr extends Node {
  kind: "Index";
  x: Expr;
  index: Expr;
}

export interface SliceExpr extends Node {
  kind: "Slice";
  x: Expr;
  lo: Expr | undefined;
  hi: Expr | undefined;
  step: Expr | undefined;
}

export interface LambdaExpr extends Node {
  kind: "Lambda";
  fn: FunctionDef;
}

export type Expr =
  | Ident
  | Literal
  | ListExpr
  | TupleExpr
  | DictExpr
  | Comprehension
  | Unary
  | Binary
  | CondExpr
  | Call
  | Dot
  | IndexExpr
  | SliceExpr
  | LambdaExpr;

export interface Param extends Node {
  kind: "required" | "optional" | "star" | "starstar";
  /** Absent for the bare `*`. */
  name?: string;
  default?: Expr;
  ident?: Ident;
}

/** A `def`, a `lambda`, or the top level of the file. */
export interface FunctionDef extends Node {
  name: string;
  params: Param[];
  body: Stmt[];
  /** Resolver output: local slots (parameters first), free variables, cell slots. */
  numLocals?: number;
  freevars?: Binding[];
  locals?: Binding[];
}

export interface ExprStmt extends Node {
  kind: "Expr";
  x: Expr;
}

export interface AssignStmt extends Node {
  kind: "Assign";
  /** `=` or an augmented operator such as `+=`. */
  op: string;
  lhs: Expr;
  rhs: Expr;
}

export interface DefStmt extends Node {
  kind: "Def";
  ident: Ident;
  fn: FunctionDef;
}

export interface IfStmt extends Node {
  kind: "If";
  cond: Expr;
  body: Stmt[];
  orElse: Stmt[];
}

export interface ForStmt extends Node {
  kind: "For";
  vars: Expr;
  iter: Expr;
  body: Stmt[];
}

export interface WhileStmt extends Node {
  kind: "While";
  cond: Expr;
  body: Stmt[];
}

export interface ReturnStmt extends Node {
  kind: "Return";
  x: Expr | undefined;
}

export interface BranchStmt extends Node {
  kind: "Break" | "Continue" | "Pass";
}

export interface LoadStmt extends Node {
  kind: "Load";
  module: string;
  names: { local: Ident; remote: string }[];
}

export type Stmt =
  | ExprStmt
  | AssignStmt
  | DefStmt
  | IfStmt
  | ForStmt
  | WhileStmt
  | ReturnStmt
  | BranchStmt
  | LoadStmt;

export interface FileAst {
  file: string;
  body: Stmt[];
}
