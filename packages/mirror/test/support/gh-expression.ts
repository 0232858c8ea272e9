/**
 * The part of GitHub Actions' expression language the generated workflows use, evaluated the way
 * the runner does: property paths into contexts, string/number/boolean/null literals, `==`, `!=`,
 * `!`, `&&`, `||` (which yield an operand, not a boolean), parentheses, and the functions
 * `always`, `success`, `failure`, `cancelled`, `fromJSON`, `toJSON`. Anything else throws, so a
 * workflow that reaches for more fails the test that runs it instead of being misread.
 */
export type Value = string | number | boolean | null | Value[] | { [key: string]: Value };

export interface ExpressionContext {
  contexts: Record<string, Value>;
  /** What `success()` and `failure()` answer: whether an earlier step (or a needed job) failed. */
  failed: boolean;
}

type Token =
  | { kind: "string"; value: string }
  | { kind: "number"; value: number }
  | { kind: "word"; value: string }
  | { kind: "op"; value: string };

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let value = "";
      i++;
      for (;;) {
        if (i >= text.length) throw new Error(`unterminated string in ${text}`);
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i];
        i++;
      }
      out.push({ kind: "string", value });
    } else if (/[0-9]/.test(c)) {
      const match = /^[0-9]+(\.[0-9]+)?/.exec(text.slice(i));
      out.push({ kind: "number", value: Number(match?.[0]) });
      i += match?.[0].length ?? 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_.-]*/.exec(text.slice(i));
      out.push({ kind: "word", value: match?.[0] ?? c });
      i += match?.[0].length ?? 1;
    } else {
      const op = ["==", "!=", "&&", "||"].find((o) => text.startsWith(o, i)) ?? c;
      if (!["==", "!=", "&&", "||", "!", "(", ")", ","].includes(op)) {
        throw new Error(`unsupported character ${JSON.stringify(c)} in expression ${text}`);
      }
      out.push({ kind: "op", value: op });
      i += op.length;
    }
  }
  return out;
}

export function truthy(value: Value): boolean {
  return !(value === null || value === false || value === 0 || value === "" || Number.isNaN(value));
}

function loosely(a: Value, b: Value): boolean {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && typeof a !== "object") return a === b;
  if (a === null || b === null) return a === b;
  const number = (v: Value) =>
    typeof v === "number" ? v : typeof v === "boolean" ? Number(v) : v === "" ? 0 : Number(v);
  return number(a) === number(b);
}

export function evaluate(text: string, ctx: ExpressionContext): Value {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];
  const take = (op?: string) => {
    const token = tokens[pos++];
    if (token === undefined || (op !== undefined && !(token.kind === "op" && token.value === op)))
      throw new Error(`expected ${op ?? "a token"} in ${text}`);
    return token;
  };
  const isOp = (op: string) => {
    const token = peek();
    return token?.kind === "op" && token.value === op;
  };

  const primary = (): Value => {
    const token = take();
    if (token.kind === "string" || token.kind === "number") return token.value;
    if (token.kind === "op") {
      if (token.value === "!") return !truthy(primary());
      if (token.value === "(") {
        const value = or();
        take(")");
        return value;
      }
      throw new Error(`unexpected ${token.value} in ${text}`);
    }
    const word = token.value;
    if (word === "true" || word === "false") return word === "true";
    if (word === "null") return null;
    if (isOp("(")) {
      take("(");
      const args: Value[] = [];
      while (!isOp(")")) {
        args.push(or());
        if (isOp(",")) take(",");
      }
      take(")");
      return call(word, args);
    }
    return lookup(word);
  };
  const comparison = (): Value => {
    let left = primary();
    while (isOp("==") || isOp("!=")) {
      const op = take().value;
      const right = primary();
      left = op === "==" ? loosely(left, right) : !loosely(left, right);
    }
    return left;
  };
  const and = (): Value => {
    let left = comparison();
    while (isOp("&&")) {
      take();
      const right = comparison();
      left = truthy(left) ? right : left;
    }
    return left;
  };
  const or = (): Value => {
    let left = and();
    while (isOp("||")) {
      take();
      const right = and();
      left = truthy(left) ? left : right;
    }
    return left;
  };

  const lookup = (path: string): Value => {
    const [head, ...rest] = path.split(".");
    if (head === undefined || !(head in ctx.contexts)) throw new Error(`unknown context ${head} in ${text}`);
    let value: Value = ctx.contexts[head] ?? null;
    for (const key of rest) {
      value =
        value !== null && typeof value === "object" && !Array.isArray(value) ? (value[key] ?? null) : null;
    }
    return value;
  };
  const call = (name: string, args: Value[]): Value => {
    switch (name) {
      case "always":
        return true;
      case "cancelled":
        return false;
      case "success":
        return !ctx.failed;
      case "failure":
        return ctx.failed;
      case "fromJSON":
        return JSON.parse(String(args[0])) as Value;
      case "toJSON":
        return JSON.stringify(args[0]);
      default:
        throw new Error(`unsupported function ${name} in ${text}`);
    }
  };

  const value = or();
  if (pos !== tokens.length) throw new Error(`trailing tokens in ${text}`);
  return value;
}

/** A value as `${{ }}` substitutes it into a string. */
export function stringify(value: Value): string {
  if (value === null) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const TEMPLATE = /\$\{\{(.*?)\}\}/g;

/**
 * A workflow value: a string that is one `${{ }}` keeps the expression's type (a matrix list),
 * other strings get each `${{ }}` substituted; lists and maps are walked.
 */
export function interpolate(value: unknown, ctx: ExpressionContext): Value {
  if (typeof value === "string") {
    const whole = /^\$\{\{(.*)\}\}$/s.exec(value.trim());
    if (whole && !whole[1]?.includes("}}")) return evaluate(whole[1] ?? "", ctx);
    return value.replace(TEMPLATE, (_, inner: string) => stringify(evaluate(inner, ctx)));
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, ctx));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, ctx)]));
  }
  return (value ?? null) as Value;
}

/**
 * An `if:` condition: an expression with or without its `${{ }}`; one that calls no status
 * function holds only while nothing before it failed (an implied `success() &&`).
 */
export function condition(text: string | undefined, ctx: ExpressionContext): boolean {
  if (text === undefined) return !ctx.failed;
  const whole = /^\$\{\{(.*)\}\}$/s.exec(text.trim());
  const expression = whole ? (whole[1] ?? "") : text;
  const statusChecked = /\b(always|success|failure|cancelled)\s*\(/.test(expression);
  return (statusChecked || !ctx.failed) && truthy(evaluate(expression, ctx));
}
