// The parser: tokens to a syntax tree, by recursive descent with precedence climbing.
import { StarlarkSyntaxError } from "../errors.js";
import { Bytes } from "../values/bytes.js";
import { SFloat } from "../values/float.js";
import type { Arg, Clause, Expr, FileAst, FunctionDef, Ident, Node, Param, Stmt } from "./ast.js";
import { scan, type Token } from "./lexer.js";

export interface ParseOptions {
  /** Accept `while` loops (not in the standard language). */
  allowWhile?: boolean;
}

const augmented = new Set(["+=", "-=", "*=", "/=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>="]);

const binopPrec: Record<string, number> = {
  or: 0,
  and: 1,
  "==": 3,
  "!=": 3,
  "<": 3,
  ">": 3,
  "<=": 3,
  ">=": 3,
  in: 3,
  "not in": 3,
  "|": 4,
  "^": 5,
  "&": 6,
  "<<": 7,
  ">>": 7,
  "+": 8,
  "-": 8,
  "*": 9,
  "/": 9,
  "//": 9,
  "%": 9,
};
const NOT_PREC = 2;
const CMP_PREC = 3;
const MAX_PREC = 9;

function describe(t: Token): string {
  switch (t.kind) {
    case "IDENT":
      return `identifier ${t.text}`;
    case "INT":
    case "FLOAT":
      return "number";
    case "STRING":
      return "string literal";
    case "BYTES":
      return "bytes literal";
    case "NEWLINE":
      return "newline";
    case "INDENT":
      return "indentation";
    case "OUTDENT":
      return "unindent";
    case "EOF":
      return "end of file";
    default:
      return `'${t.kind}'`;
  }
}

class Parser {
  private p = 0;
  private tok: Token;

  constructor(
    private readonly tokens: Token[],
    private readonly file: string,
    private readonly options: ParseOptions,
  ) {
    this.tok = tokens[0] as Token;
  }

  private error(message: string, at: Node = this.tok): never {
    throw new StarlarkSyntaxError("syntax", [
      { pos: { file: this.file, line: at.line, col: at.col }, message },
    ]);
  }

  private unexpected(want?: string): never {
    this.error(`got ${describe(this.tok)}${want ? `, want ${want}` : ""}`);
  }

  /** The kind of the current token (a method, so that checks after next() are not narrowed away). */
  private k(): string {
    return this.tok.kind;
  }

  private next(): Token {
    const t = this.tok;
    if (this.p < this.tokens.length - 1) this.p++;
    this.tok = this.tokens[this.p] as Token;
    return t;
  }

  private peek(k = 1): Token {
    return this.tokens[Math.min(this.p + k, this.tokens.length - 1)] as Token;
  }

  private expect(kind: string, want = `'${kind}'`): Token {
    if (this.k() !== kind) this.unexpected(want);
    return this.next();
  }

  private at(t: Node): Node {
    return { line: t.line, col: t.col };
  }

  parseFile(): FileAst {
    const body: Stmt[] = [];
    while (this.k() !== "EOF") {
      if (this.k() === "NEWLINE") {
        this.next();
        continue;
      }
      this.statement(body);
    }
    return { file: this.file, body };
  }

  private statement(out: Stmt[]): void {
    switch (this.k()) {
      case "def":
        out.push(this.defStmt());
        return;
      case "if":
        out.push(this.ifStmt());
        return;
      case "for":
        out.push(this.forStmt());
        return;
      case "while":
        out.push(this.whileStmt());
        return;
      case "INDENT":
        this.error("unexpected indentation");
        break;
      default:
        this.simpleStmt(out);
    }
  }

  private suite(): Stmt[] {
    const body: Stmt[] = [];
    if (this.k() === "NEWLINE") {
      this.next();
      this.expect("INDENT", "an indented block");
      while (this.k() !== "OUTDENT" && this.k() !== "EOF") this.statement(body);
      this.expect("OUTDENT", "unindent");
    } else {
      this.simpleStmt(body);
    }
    return body;
  }

  private defStmt(): Stmt {
    const def = this.next();
    const nameTok = this.expect("IDENT", "function name");
    const ident: Ident = { kind: "Ident", name: nameTok.text as string, ...this.at(nameTok) };
    this.expect("(");
    const params = this.params(")");
    this.expect(")");
    this.expect(":");
    const body = this.suite();
    const fn: FunctionDef = { name: ident.name, params, body, ...this.at(def) };
    return { kind: "Def", ident, fn, ...this.at(def) };
  }

  private params(close: string): Param[] {
    const params: Param[] = [];
    let seenOptional = false;
    let seenStar = false;
    let seenStarStar = false;
    const names = new Set<string>();
    const addName = (t: Token): Ident => {
      const name = t.text as string;
      if (names.has(name)) this.error(`duplicate parameter: ${name}`, t);
      names.add(name);
      return { kind: "Ident", name, ...this.at(t) };
    };
    while (this.k() !== close) {
      const start = this.tok;
      if (seenStarStar) this.error("parameter may not follow **kwargs");
      if (this.k() === "*") {
        this.next();
        if (seenStar) this.error("multiple * parameters not allowed", start);
        seenStar = true;
        if (this.k() === "IDENT") {
          const ident = addName(this.next());
          params.push({ kind: "star", name: ident.name, ident, ...this.at(start) });
        } else {
          params.push({ kind: "star", ...this.at(start) });
        }
      } else if (this.k() === "**") {
        this.next();
        const ident = addName(this.expect("IDENT", "parameter name"));
        seenStarStar = true;
        params.push({ kind: "starstar", name: ident.name, ident, ...this.at(start) });
      } else {
        const ident = addName(this.expect("IDENT", "parameter name"));
        if (this.k() === "=") {
          this.next();
          const dflt = this.test();
          seenOptional = true;
          params.push({ kind: "optional", name: ident.name, ident, default: dflt, ...this.at(start) });
        } else {
          if (seenOptional && !seenStar) this.error("required parameter may not follow optional", start);
          params.push({ kind: "required", name: ident.name, ident, ...this.at(start) });
        }
      }
      if (this.k() !== ",") break;
      this.next();
    }
    const bare = params.findIndex((p) => p.kind === "star" && p.name === undefined);
    if (bare >= 0) {
      const after = params[bare + 1];
      if (after === undefined || after.kind === "starstar") {
        this.error("bare * must be followed by keyword-only parameters", params[bare] as Param);
      }
    }
    return params;
  }

  private ifStmt(): Stmt {
    const start = this.next(); // if or elif
    const cond = this.test();
    this.expect(":");
    const body = this.suite();
    let orElse: Stmt[] = [];
    if (this.k() === "elif") {
      orElse = [this.ifStmt()];
    } else if (this.k() === "else") {
      this.next();
      this.expect(":");
      orElse = this.suite();
    }
    return { kind: "If", cond, body, orElse, ...this.at(start) };
  }

  private forStmt(): Stmt {
    const start = this.next();
    const vars = this.loopVariables();
    this.checkTarget(vars, false);
    this.expect("in");
    const iter = this.expressions(false);
    this.expect(":");
    const body = this.suite();
    return { kind: "For", vars, iter, body, ...this.at(start) };
  }

  private whileStmt(): Stmt {
    const start = this.next();
    if (!this.options.allowWhile)
      this.error("while loops are not part of Starlark (enable them with the allowWhile option)", start);
    const cond = this.test();
    this.expect(":");
    const body = this.suite();
    return { kind: "While", cond, body, ...this.at(start) };
  }

  private loopVariables(): Expr {
    const first = this.primaryWithSuffix();
    if (this.k() !== ",") return first;
    const elems = [first];
    while (this.k() === ",") {
      this.next();
      elems.push(this.primaryWithSuffix());
    }
    return { kind: "Tuple", elems, parens: false, ...this.at(first) };
  }

  private simpleStmt(out: Stmt[]): void {
    for (;;) {
      out.push(this.smallStmt());
      if (this.k() !== ";") break;
      this.next();
      if (this.k() === "NEWLINE" || this.k() === "EOF") break;
    }
    if (this.k() !== "EOF") this.expect("NEWLINE", "newline");
  }

  private smallStmt(): Stmt {
    const start = this.tok;
    switch (start.kind) {
      case "return": {
        this.next();
        const k = this.k();
        const x = k === "NEWLINE" || k === ";" || k === "EOF" ? undefined : this.expressions(false);
        return { kind: "Return", x, ...this.at(start) };
      }
      case "break":
      case "continue":
      case "pass":
        this.next();
        return {
          kind: start.kind === "break" ? "Break" : start.kind === "continue" ? "Continue" : "Pass",
          ...this.at(start),
        };
      case "load":
        return this.loadStmt();
    }
    const lhs = this.expressions(false);
    const op = this.k();
    if (op === "=" || augmented.has(op)) {
      const opTok = this.next();
      this.checkTarget(lhs, op !== "=");
      const rhs = this.expressions(false);
      return { kind: "Assign", op, lhs, rhs, ...this.at(opTok) };
    }
    return { kind: "Expr", x: lhs, ...this.at(start) };
  }

  private checkTarget(x: Expr, augmentedOp: boolean): void {
    switch (x.kind) {
      case "Ident":
      case "Index":
      case "Dot":
        return;
      case "Tuple":
      case "List":
        if (augmentedOp)
          this.error(
            `cannot use an augmented assignment with a ${x.kind === "Tuple" ? "tuple" : "list"} target`,
            x,
          );
        for (const e of x.elems) this.checkTarget(e, false);
        return;
      case "Slice":
        this.error("cannot assign to a slice", x);
        break;
      default:
        this.error(`cannot assign to this expression (${x.kind.toLowerCase()})`, x);
    }
  }

  private loadStmt(): Stmt {
    const start = this.next();
    this.expect("(");
    const mod = this.expect("STRING", "module name (a string literal)");
    const names: { local: Ident; remote: string }[] = [];
    while (this.k() === ",") {
      this.next();
      if (this.k() === ")") break;
      if (this.k() === "IDENT") {
        const local = this.next();
        this.expect("=");
        const remote = this.expect("STRING", "name to load (a string literal)");
        names.push({
          local: { kind: "Ident", name: local.text as string, ...this.at(local) },
          remote: remote.text as string,
        });
      } else {
        const remote = this.expect("STRING", "name to load (a string literal)");
        names.push({
          local: { kind: "Ident", name: remote.text as string, ...this.at(remote) },
          remote: remote.text as string,
        });
      }
    }
    this.expect(")");
    if (names.length === 0) this.error("load statement must import at least one name", start);
    return { kind: "Load", module: mod.text as string, names, ...this.at(start) };
  }

  /** `Expressions`: one test, or a tuple of them without parentheses. */
  private expressions(allowTrailingComma: boolean): Expr {
    const first = this.test();
    if (this.k() !== ",") return first;
    const elems = [first];
    while (this.k() === ",") {
      const comma = this.next();
      if (this.endsExpressions()) {
        if (!allowTrailingComma)
          this.error("trailing comma is allowed only inside parentheses or brackets", comma);
        break;
      }
      elems.push(this.test());
    }
    return { kind: "Tuple", elems, parens: false, ...this.at(first) };
  }

  private endsExpressions(): boolean {
    const k = this.k();
    return (
      k === "NEWLINE" ||
      k === "EOF" ||
      k === ")" ||
      k === "]" ||
      k === "}" ||
      k === "=" ||
      k === ":" ||
      k === ";" ||
      augmented.has(k)
    );
  }

  private test(): Expr {
    if (this.k() === "lambda") return this.lambda();
    const x = this.testPrec(0);
    if (this.k() === "if") {
      this.next();
      const cond = this.testPrec(0);
      if (this.k() !== "else") this.unexpected("'else' in conditional expression");
      this.next();
      const whenFalse = this.test();
      return { kind: "Cond", cond, whenTrue: x, whenFalse, ...this.at(x) };
    }
    return x;
  }

  private lambda(): Expr {
    const start = this.next();
    const params = this.params(":");
    this.expect(":");
    const bodyExpr = this.test();
    const ret: Stmt = { kind: "Return", x: bodyExpr, ...this.at(bodyExpr) };
    const fn: FunctionDef = { name: "lambda", params, body: [ret], ...this.at(start) };
    return { kind: "Lambda", fn, ...this.at(start) };
  }

  private testPrec(prec: number): Expr {
    if (prec > MAX_PREC) return this.unary();
    if (prec === NOT_PREC && this.k() === "not") {
      const start = this.next();
      const x = this.testPrec(NOT_PREC);
      return { kind: "Unary", op: "not", x, ...this.at(start) };
    }
    let x = this.testPrec(prec + 1);
    let compared = false;
    for (;;) {
      let op = this.k();
      if (op === "not" && this.peek().kind === "in") op = "not in";
      if (binopPrec[op] !== prec) return x;
      const opTok = this.next();
      if (op === "not in") this.next();
      if (prec === CMP_PREC && compared) {
        this.error(`comparison operators do not chain: write (a ${op} b) explicitly`, opTok);
      }
      const y = this.testPrec(prec + 1);
      x = { kind: "Binary", op, x, y, ...this.at(opTok) };
      if (prec === CMP_PREC) compared = true;
    }
  }

  private unary(): Expr {
    const k = this.k();
    if (k === "-" || k === "+" || k === "~") {
      const start = this.next();
      const x = this.unary();
      return { kind: "Unary", op: k, x, ...this.at(start) };
    }
    return this.primaryWithSuffix();
  }

  private primaryWithSuffix(): Expr {
    let x = this.operand();
    for (;;) {
      const t = this.tok;
      if (t.kind === ".") {
        this.next();
        const name = this.expect("IDENT", "attribute name");
        x = { kind: "Dot", x, name: name.text as string, ...this.at(name) };
      } else if (t.kind === "(") {
        this.next();
        x = { kind: "Call", fn: x, args: this.callArgs(), ...this.at(t) };
        this.expect(")");
      } else if (t.kind === "[") {
        this.next();
        x = this.indexOrSlice(x, t);
      } else {
        return x;
      }
    }
  }

  private indexOrSlice(x: Expr, open: Token): Expr {
    let lo: Expr | undefined;
    if (this.k() !== ":") {
      lo = this.expressions(true);
      if (this.k() === "]") {
        this.next();
        return { kind: "Index", x, index: lo, ...this.at(open) };
      }
    }
    this.expect(":", "':' or ']'");
    let hi: Expr | undefined;
    let step: Expr | undefined;
    if (this.k() !== ":" && this.k() !== "]") hi = this.test();
    if (this.k() === ":") {
      this.next();
      if (this.k() !== "]") step = this.test();
    }
    this.expect("]");
    return { kind: "Slice", x, lo, hi, step, ...this.at(open) };
  }

  private callArgs(): Arg[] {
    const args: Arg[] = [];
    let seenNamed = false;
    let seenStar = false;
    let seenStarStar = false;
    while (this.k() !== ")") {
      const start = this.tok;
      if (seenStarStar) this.error("argument may not follow **kwargs");
      if (start.kind === "*") {
        this.next();
        if (seenStar) this.error("multiple *args arguments not allowed", start);
        seenStar = true;
        args.push({ kind: "star", value: this.test(), ...this.at(start) });
      } else if (start.kind === "**") {
        this.next();
        seenStarStar = true;
        args.push({ kind: "starstar", value: this.test(), ...this.at(start) });
      } else if (start.kind === "IDENT" && this.peek().kind === "=") {
        if (seenStar) this.error(`keyword argument ${start.text} may not follow *args`, start);
        this.next();
        this.next();
        seenNamed = true;
        args.push({ kind: "named", name: start.text as string, value: this.test(), ...this.at(start) });
      } else {
        if (seenStar) this.error("positional argument may not follow *args", start);
        if (seenNamed) this.error("positional argument may not follow named arguments", start);
        args.push({ kind: "pos", value: this.test(), ...this.at(start) });
      }
      if (this.k() !== ",") break;
      this.next();
    }
    return args;
  }

  private operand(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case "IDENT":
        this.next();
        return { kind: "Ident", name: t.text as string, ...this.at(t) };
      case "INT":
        this.next();
        return { kind: "Literal", value: t.int as number, ...this.at(t) };
      case "FLOAT":
        this.next();
        return { kind: "Literal", value: new SFloat(t.float as number), ...this.at(t) };
      case "STRING":
        this.next();
        if (this.k() === "STRING") this.error("adjacent string literals are not concatenated: use +");
        return { kind: "Literal", value: t.text as string, ...this.at(t) };
      case "BYTES":
        this.next();
        return { kind: "Literal", value: new Bytes(t.bytes as Uint8Array), ...this.at(t) };
      case "(": {
        this.next();
        if (this.k() === ")") {
          this.next();
          return { kind: "Tuple", elems: [], parens: true, ...this.at(t) };
        }
        const first = this.test();
        if (this.k() === "for")
          this.error("generator expressions are not part of Starlark: use a list comprehension");
        if (this.k() === ")") {
          this.next();
          return first;
        }
        const elems = [first];
        while (this.k() === ",") {
          this.next();
          if (this.k() === ")") break;
          elems.push(this.test());
        }
        this.expect(")", "',' or ')'");
        return { kind: "Tuple", elems, parens: true, ...this.at(t) };
      }
      case "[": {
        this.next();
        if (this.k() === "]") {
          this.next();
          return { kind: "List", elems: [], ...this.at(t) };
        }
        const first = this.test();
        if (this.k() === "for") {
          const clauses = this.clauses();
          this.expect("]");
          return { kind: "Comp", body: first, dict: false, clauses, ...this.at(t) };
        }
        const elems = [first];
        while (this.k() === ",") {
          this.next();
          if (this.k() === "]") break;
          elems.push(this.test());
        }
        this.expect("]", "',' or ']'");
        return { kind: "List", elems, ...this.at(t) };
      }
      case "{": {
        this.next();
        if (this.k() === "}") {
          this.next();
          return { kind: "Dict", entries: [], ...this.at(t) };
        }
        const key = this.test();
        this.expect(":", "':' (Starlark has no set literals: use set([...]))");
        const value = this.test();
        if (this.k() === "for") {
          const clauses = this.clauses();
          this.expect("}");
          return { kind: "Comp", body: key, value, dict: true, clauses, ...this.at(t) };
        }
        const entries = [{ key, value }];
        while (this.k() === ",") {
          this.next();
          if (this.k() === "}") break;
          const k = this.test();
          this.expect(":");
          entries.push({ key: k, value: this.test() });
        }
        this.expect("}", "',' or '}'");
        return { kind: "Dict", entries, ...this.at(t) };
      }
      default:
        this.unexpected("an expression");
    }
  }

  private clauses(): Clause[] {
    const clauses: Clause[] = [];
    while (this.k() === "for" || this.k() === "if") {
      const t = this.next();
      if (t.kind === "for") {
        const vars = this.loopVariables();
        this.checkTarget(vars, false);
        this.expect("in");
        const iter = this.testPrec(0);
        clauses.push({ kind: "for", vars, iter, ...this.at(t) });
      } else {
        clauses.push({ kind: "if", cond: this.testPrec(0), ...this.at(t) });
      }
    }
    return clauses;
  }
}

/** Parses a file. Throws {@link StarlarkSyntaxError} at the first problem. */
export function parse(src: string, file: string, options: ParseOptions = {}): FileAst {
  return new Parser(scan(src, file), file, options).parseFile();
}

/** Parses one expression (for the host: a signature default, a REPL line). */
export function parseExpression(src: string, file: string): Expr {
  const parser = new Parser(scan(src, file), file, {});
  // an expression statement
  const ast = parser.parseFile();
  const only = ast.body[0];
  if (ast.body.length !== 1 || only?.kind !== "Expr") {
    throw new StarlarkSyntaxError("syntax", [
      { pos: { file, line: 1, col: 1 }, message: "want a single expression" },
    ]);
  }
  return only.x;
}
