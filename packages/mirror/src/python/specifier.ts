/**
 * PEP 440 version specifiers (`>=1.0,<2`, `~=1.4.5`, `==3.11.*`). `contains` always admits
 * pre-releases: whether pre-releases are wanted is the caller's decision (the version window's
 * `skip_prereleases`), not the specifier's.
 */
import { compareVersions, isPrerelease, type Pep440Version, parseVersion, withoutLocal } from "./pep440.js";

export type Operator = "~=" | "==" | "!=" | "<=" | ">=" | "<" | ">" | "===";

export interface Specifier {
  op: Operator;
  /** The version text as written (for `===`, any text). */
  text: string;
  /** `==`/`!=` with a trailing `.*`. */
  prefix: boolean;
  version?: Pep440Version;
}

const CLAUSE = /^\s*(~=|===|==|!=|<=|>=|<|>)\s*([^,;\s)]+)\s*$/;

/** One clause, or undefined when it is not a valid specifier. */
export function parseSpecifier(text: string): Specifier | undefined {
  const m = CLAUSE.exec(text);
  if (!m) return undefined;
  const op = m[1] as Operator;
  const rest = m[2] as string;
  if (op === "===") return { op, text: rest, prefix: false };
  const prefix = rest.endsWith(".*");
  if (prefix && op !== "==" && op !== "!=") return undefined;
  const body = prefix ? rest.slice(0, -2) : rest;
  // the spelling rules of a specifier are stricter than a version's: no leading `v`, no blanks
  if (/^v/i.test(body)) return undefined;
  const version = parseVersion(body);
  if (!version) return undefined;
  if (version.local && (prefix || (op !== "==" && op !== "!="))) return undefined;
  if (prefix && (version.pre || version.post !== undefined || version.dev !== undefined)) return undefined;
  if (op === "~=" && version.release.length < 2) return undefined;
  return { op, text: rest, prefix, version };
}

/** A comma-separated set of clauses (empty admits everything), or undefined when one is invalid. */
export function parseSpecifierSet(text: string): Specifier[] | undefined {
  if (text.trim() === "") return [];
  const clauses = text.split(",").map(parseSpecifier);
  return clauses.every((c): c is Specifier => c !== undefined) ? clauses : undefined;
}

/** Whether `candidate` (a version text) satisfies every clause. */
export function specifierSetContains(set: Specifier[], candidate: string): boolean {
  return set.every((clause) => specifierContains(clause, candidate));
}

export function specifierContains(spec: Specifier, candidate: string): boolean {
  if (spec.op === "===") return candidate.trim().toLowerCase() === spec.text.toLowerCase();
  const v = parseVersion(candidate);
  const target = spec.version;
  if (!v || !target) return false;
  switch (spec.op) {
    case "==":
      return equals(spec, v, target);
    case "!=":
      return !equals(spec, v, target);
    case "~=":
      return compatible(v, target);
    case "<=":
      return compareVersions(withoutLocal(v), target) <= 0;
    case ">=":
      return compareVersions(withoutLocal(v), target) >= 0;
    case "<":
      return lessThan(v, target);
    case ">":
      return greaterThan(v, target);
  }
}

function equals(spec: Specifier, v: Pep440Version, target: Pep440Version): boolean {
  if (spec.prefix) return matchesPrefix(withoutLocal(v), target);
  return compareVersions(target.local ? v : withoutLocal(v), target) === 0;
}

/** `~=X.Y.Z`: at least X.Y.Z and within X.Y.* */
function compatible(v: Pep440Version, target: Pep440Version): boolean {
  const prefix: Pep440Version = { epoch: target.epoch, release: target.release.slice(0, -1) };
  return compareVersions(withoutLocal(v), target) >= 0 && matchesPrefix(withoutLocal(v), prefix);
}

/** `==P.*`: the candidate's epoch equals and its release, zero-padded, starts with P's release. */
function matchesPrefix(v: Pep440Version, prefix: Pep440Version): boolean {
  if (v.epoch !== prefix.epoch) return false;
  return prefix.release.every((part, i) => (v.release[i] ?? 0n) === part);
}

/** `<V` never admits a pre-release of V itself unless V is one. */
function lessThan(v: Pep440Version, target: Pep440Version): boolean {
  if (compareVersions(v, target) >= 0) return false;
  return !(!isPrerelease(target) && isPrerelease(v) && sameBase(v, target));
}

/** `>V` never admits a post-release or a local version of V itself unless V names one. */
function greaterThan(v: Pep440Version, target: Pep440Version): boolean {
  if (compareVersions(v, target) <= 0) return false;
  if (target.post === undefined && v.post !== undefined && sameBase(v, target)) return false;
  return !(v.local !== undefined && sameBase(v, target));
}

function sameBase(a: Pep440Version, b: Pep440Version): boolean {
  return (
    compareVersions({ epoch: a.epoch, release: a.release }, { epoch: b.epoch, release: b.release }) === 0
  );
}
