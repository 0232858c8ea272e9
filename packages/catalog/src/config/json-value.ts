import { ConfigError } from "./errors.js";
import { childPath, showPath } from "./key-path.js";
import { closestKey } from "./suggest.js";

/** A JSON object as `JSON.parse` returns it. */
export type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** "a string", "an array", "null": what a value is, for "must be X, not Y" messages. */
function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return value === "" ? "an empty string" : "a string";
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

function invalidType(path: string, expected: string, value: unknown): ConfigError {
  return new ConfigError(
    "INVALID_TYPE",
    `${showPath(path)} must be ${expected}, not ${describeJsonType(value)}`,
    path,
  );
}

export function missingKey(path: string, expected: string): ConfigError {
  return new ConfigError("INVALID_TYPE", `${path} is required (${expected})`, path);
}

export function expectObject(value: unknown, path: string): JsonObject {
  if (!isJsonObject(value)) throw invalidType(path, "an object", value);
  return value;
}

export function expectArray(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw invalidType(path, "an array", value);
  return value;
}

/** Refuses the first key of `object` outside `known`, naming it and the nearest known key. */
export function rejectUnknownKeys(
  object: JsonObject,
  known: readonly string[],
  path: string,
  context = "",
): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const suggestion = closestKey(key, known);
    const hint = suggestion === undefined ? "" : ` (did you mean "${suggestion}"?)`;
    throw new ConfigError(
      "UNKNOWN_KEY",
      `${childPath(path, key)} is not a known key${context}${hint}`,
      childPath(path, key),
    );
  }
}

/** Own properties only: a key such as "constructor" must not be found on the prototype. */
function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

export function optionalString(object: JsonObject, key: string, path: string): string | undefined {
  const value = own(object, key);
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") {
    throw invalidType(childPath(path, key), "a non-empty string", value);
  }
  return value;
}

export function requiredString(object: JsonObject, key: string, path: string): string {
  const value = optionalString(object, key, path);
  if (value === undefined) throw missingKey(childPath(path, key), "a non-empty string");
  return value;
}

export function optionalBoolean(object: JsonObject, key: string, path: string): boolean | undefined {
  const value = own(object, key);
  if (value === undefined || typeof value === "boolean") return value;
  throw invalidType(childPath(path, key), "true or false", value);
}

export function optionalValue(object: JsonObject, key: string): unknown {
  return own(object, key);
}
