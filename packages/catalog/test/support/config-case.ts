import type { ConfigErrorCode } from "../../src/config/errors.js";

/** The items of catalog-config.md's "Schema versus loader differences" table. */
export const SCHEMA_TABLE = {
  siteUrl: "differs",
  "nav links": "differs",
  "ci.packageManager default": "differs",
  "sources[].url": "differs",
  ownerUrl: "differs",
  "docsNav[].link": "agrees",
  "docsNav requires docs": "agrees",
  "sources shape": "agrees",
  "duplicate label": "differs",
} as const;
export type SchemaItem = keyof typeof SCHEMA_TABLE;

/** What is on disk where the config file should be. */
export type CaseInput =
  /**
   * Written with JSON.stringify. Made first, in the config's directory: `paths` (a name ending in
   * "/" a directory, else an empty file; parents made too), then `symlinks` (name → target).
   */
  | { json: unknown; paths?: string[]; symlinks?: Record<string, string> }
  | { bytes: string | Uint8Array }
  | { missing: true }
  | { directory: true };

/** Message fragments may name `{dir}` (the config's directory) and `{parent}` (the one above it). */
export interface Refusal {
  code: ConfigErrorCode;
  keyPath: string | undefined;
  message: string;
  /** Text (secrets: a user name, a password) the message must not contain. */
  notShown?: string | readonly string[];
}

export interface Acceptance {
  /** Must be contained in the parsed config (toMatchObject); `dir` is the config's directory. */
  parsed?: (dir: string) => Record<string, unknown>;
  /** Key paths ("footer", "ci.packageManager", "sources.0.label") that must stay absent. */
  absent?: string[];
}

/**
 * How the published schema judges the row's JSON. Absent: as the loader does, and the row is not
 * about an item of the differences table. `agrees`: as the loader does, for an "agrees" item.
 * `accepts`: the schema accepts what the loader refuses, the stated difference of a "differs" item.
 * `beyond`: the loader refuses for a reason no schema of one document can see (the reason).
 */
export type SchemaRelation = { agrees: SchemaItem } | { accepts: SchemaItem } | { beyond: string };

export interface ConformanceCase {
  rule: string;
  input: CaseInput;
  expect: { refused: Refusal } | { accepted: Acceptance };
  schema?: SchemaRelation;
  /** A code raised outside the loader, with the place that tests it. */
  raisedElsewhere?: { code: ConfigErrorCode; testedIn: string };
}

export type JsonObject = Record<string, unknown>;

/** The smallest valid file; each row changes one thing in it. */
export function base(): JsonObject {
  return { sources: [{ path: "index" }], brand: { title: "Acme tools" } };
}

export function config(extra: JsonObject): JsonObject {
  return { ...base(), ...extra };
}

export function without(key: string): JsonObject {
  const value = base();
  delete value[key];
  return value;
}

export function sources(...entries: unknown[]): JsonObject {
  return config({ sources: entries });
}

export function refuse(
  rule: string,
  json: unknown,
  code: ConfigErrorCode,
  keyPath: string | undefined,
  message: string,
  schema?: SchemaRelation,
): ConformanceCase {
  return {
    rule,
    input: { json },
    expect: { refused: { code, keyPath, message } },
    ...(schema && { schema }),
  };
}

/** A refusal of the file as a whole (no key path): missing, unreadable, not JSON. */
export function refuseFile(
  rule: string,
  input: CaseInput,
  code: ConfigErrorCode,
  message: string,
): ConformanceCase {
  return { rule, input, expect: { refused: { code, keyPath: undefined, message } } };
}

/** The row, with `paths` made in the config's directory before it is loaded. */
export function onDisk(paths: string[], row: ConformanceCase): ConformanceCase {
  if (!("json" in row.input)) throw new Error(`${row.rule}: only a JSON row names paths`);
  return { ...row, input: { ...row.input, paths } };
}

export function accept(
  rule: string,
  json: unknown,
  accepted: Acceptance = {},
  schema?: SchemaRelation,
): ConformanceCase {
  return { rule, input: { json }, expect: { accepted }, ...(schema && { schema }) };
}
