/**
 * PEP 508 environment markers: parsing, and evaluation against a target environment (the one
 * `python.version` and a `wheels` key describe: environment.ts), not against this process.
 */
import { normalizeName } from "./name.js";
import { parseSpecifier, specifierContains } from "./specifier.js";

export type MarkerValue = { variable: string } | { literal: string };
export type MarkerOp = "<" | "<=" | "==" | "!=" | ">=" | ">" | "~=" | "===" | "in" | "not in";
export type Marker =
  | { kind: "and" | "or"; items: Marker[] }
  | { kind: "compare"; lhs: MarkerValue; op: MarkerOp; rhs: MarkerValue };

/** Values of the marker variables; `extras`/`dependency_groups` (PEP 751) are sets. */
export type MarkerEnvironment = Record<string, string | ReadonlySet<string>>;

export class MarkerError extends Error {}

const VARIABLES = new Set([
  "python_version",
  "python_full_version",
  "os_name",
  "sys_platform",
  "platform_release",
  "platform_system",
  "platform_version",
  "platform_machine",
  "platform_python_implementation",
  "implementation_name",
  "implementation_version",
  "extra",
  "extras",
  "dependency_groups",
]);

/** The older dotted spellings packaging still reads. */
const ALIASES: Record<string, string> = {
  "os.name": "os_name",
  "sys.platform": "sys_platform",
  "platform.version": "platform_version",
  "platform.machine": "platform_machine",
  "platform.python_implementation": "platform_python_implementation",
  python_implementation: "platform_python_implementation",
};

/** Variables compared as versions whenever the other side makes a valid specifier. */
const VERSION_VARIABLES = new Set([
  "python_version",
  "python_full_version",
  "implementation_version",
  "platform_release",
]);

const TOKEN = /\s*(?:(\()|(\))|'([^']*)'|"([^"]*)"|(===|==|!=|<=|>=|~=|<|>)|([A-Za-z_][A-Za-z0-9_.]*))/y;

type Token = { t: "(" | ")" } | { t: "str"; v: string } | { t: "op"; v: string } | { t: "word"; v: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new MarkerError(`invalid marker ${JSON.stringify(text)} at column ${at + 1}`);
    if (m[1]) tokens.push({ t: "(" });
    else if (m[2]) tokens.push({ t: ")" });
    else if (m[3] !== undefined || m[4] !== undefined) tokens.push({ t: "str", v: (m[3] ?? m[4]) as string });
    else if (m[5]) tokens.push({ t: "op", v: m[5] });
    else tokens.push({ t: "word", v: m[6] as string });
  }
  return tokens;
}

/** Parses a marker; a malformed one throws `MarkerError`. */
export function parseMarker(text: string): Marker {
  const tokens = tokenize(text);
  let i = 0;
  const fail = (): never => {
    throw new MarkerError(`invalid marker ${JSON.stringify(text)}`);
  };
  const peekWord = (word: string): boolean => {
    const token = tokens[i];
    return token?.t === "word" && token.v === word;
  };
  const value = (): MarkerValue => {
    const token = tokens[i++];
    if (token?.t === "str") return { literal: token.v };
    if (token?.t === "word") {
      const name = ALIASES[token.v] ?? token.v;
      if (VARIABLES.has(name)) return { variable: name };
    }
    return fail();
  };
  const op = (): MarkerOp => {
    const token = tokens[i++];
    if (token?.t === "op") return token.v as MarkerOp;
    if (token?.t === "word" && token.v === "in") return "in";
    if (token?.t === "word" && token.v === "not" && peekWord("in")) {
      i++;
      return "not in";
    }
    return fail();
  };
  const atom = (): Marker => {
    if (tokens[i]?.t === "(") {
      i++;
      const inner = disjunction();
      if (tokens[i++]?.t !== ")") fail();
      return inner;
    }
    const lhs = value();
    const operator = op();
    const rhs = value();
    return { kind: "compare", lhs, op: operator, rhs };
  };
  const conjunction = (): Marker => {
    const items = [atom()];
    while (peekWord("and")) {
      i++;
      items.push(atom());
    }
    return items.length === 1 ? (items[0] as Marker) : { kind: "and", items };
  };
  const disjunction = (): Marker => {
    const items = [conjunction()];
    while (peekWord("or")) {
      i++;
      items.push(conjunction());
    }
    return items.length === 1 ? (items[0] as Marker) : { kind: "or", items };
  };
  const marker = disjunction();
  if (i !== tokens.length) fail();
  return marker;
}

/**
 * Evaluates a marker. A comparison that PEP 508 leaves undefined (`~=` on a non-version text, a
 * variable missing from the environment) throws `MarkerError`.
 */
export function evaluateMarker(marker: Marker, env: MarkerEnvironment): boolean {
  switch (marker.kind) {
    case "and":
      return marker.items.every((item) => evaluateMarker(item, env));
    case "or":
      return marker.items.some((item) => evaluateMarker(item, env));
    case "compare":
      return compare(marker, env);
  }
}

function compare(marker: Extract<Marker, { kind: "compare" }>, env: MarkerEnvironment): boolean {
  const key =
    "variable" in marker.lhs
      ? marker.lhs.variable
      : "variable" in marker.rhs
        ? marker.rhs.variable
        : undefined;
  if (key === undefined) throw new MarkerError("a marker compares two literals");
  let lhs = resolve(marker.lhs, env);
  let rhs = resolve(marker.rhs, env);
  if (typeof rhs !== "string") {
    // a set-valued variable (PEP 751 `extras`, `dependency_groups`, or several extras) on the right
    if (typeof lhs !== "string" || (marker.op !== "in" && marker.op !== "not in")) {
      throw new MarkerError(`${key} can only be tested with "<name>" in ${key}`);
    }
    const found = rhs.has(normalizeName(lhs));
    return marker.op === "in" ? found : !found;
  }
  if (typeof lhs !== "string") {
    if (key !== "extra" || (marker.op !== "==" && marker.op !== "!=")) {
      throw new MarkerError(`${key} holds a set and cannot be compared with ${marker.op}`);
    }
    const found = lhs.has(normalizeName(rhs));
    return marker.op === "==" ? found : !found;
  }
  if (key === "extra") {
    lhs = normalizeName(lhs);
    rhs = normalizeName(rhs);
  }
  if (VERSION_VARIABLES.has(key) && marker.op !== "in" && marker.op !== "not in") {
    const spec = parseSpecifier(`${marker.op}${rhs}`);
    if (spec) return specifierContains(spec, lhs);
  }
  switch (marker.op) {
    case "in":
      return rhs.includes(lhs);
    case "not in":
      return !rhs.includes(lhs);
    case "==":
    case "<=":
    case ">=":
      return lhs === rhs;
    case "!=":
      return lhs !== rhs;
    case "<":
    case ">":
      return false;
    default:
      throw new MarkerError(`${marker.op} is undefined on ${JSON.stringify(lhs)} and ${JSON.stringify(rhs)}`);
  }
}

function resolve(value: MarkerValue, env: MarkerEnvironment): string | ReadonlySet<string> {
  if ("literal" in value) return value.literal;
  const found = env[value.variable];
  if (found === undefined) throw new MarkerError(`the environment has no ${value.variable}`);
  return found;
}

/** Parses and evaluates in one step (an absent marker holds everywhere). */
export function markerHolds(text: string | undefined, env: MarkerEnvironment): boolean {
  return text === undefined || evaluateMarker(parseMarker(text), env);
}

/** The marker in the normal spelling (double-quoted literals, single spaces, groups parenthesised). */
export function formatMarker(marker: Marker): string {
  if (marker.kind === "compare") return `${formatValue(marker.lhs)} ${marker.op} ${formatValue(marker.rhs)}`;
  return marker.items
    .map((item) => (item.kind === "compare" ? formatMarker(item) : `(${formatMarker(item)})`))
    .join(` ${marker.kind} `);
}

function formatValue(value: MarkerValue): string {
  return "variable" in value ? value.variable : `"${value.literal}"`;
}
