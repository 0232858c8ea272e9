import { ExitCode, PkgError } from "@pkg/common";
import {
  type FailureReason,
  RUN_SUMMARY_SCHEMA_VERSION,
  type RunSummary,
  type RunVersionStatus,
} from "../documents/run-summary.js";

/**
 * Reads `run-summary.json` as notify needs it: JSON, `schema_version` 1, and every field notify
 * reads of the right type. Anything else is exit 65 naming the file and the first problem.
 */

const VERSION_STATUSES: readonly RunVersionStatus[] = ["published", "partial", "failed", "skipped_existing"];
const FAILURE_REASONS: readonly FailureReason[] = [
  "test_failed",
  "missing_junit",
  "missing_bundle",
  "no_test_leg",
  "refused",
  "push_error",
];
const ANNOUNCE_STATUSES = [
  "announced",
  "nothing_to_announce",
  "skipped_no_credential",
  "failed",
  "interrupted",
] as const;

type Json = Record<string, unknown>;

class ShapeError extends Error {}

/** A key's place in the document, for messages: `versions[2].status`. */
const path = (at: string, key: string) => (at === "" ? key : `${at}.${key}`);

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function object(value: unknown, at: string): Json {
  if (!isObject(value)) throw new ShapeError(`${at}: expected an object`);
  return value;
}

function string(record: Json, key: string, at: string): void {
  if (typeof record[key] !== "string") throw new ShapeError(`${path(at, key)}: expected a string`);
}

function optionalString(record: Json, key: string, at: string): void {
  if (record[key] !== undefined) string(record, key, at);
}

function boolean(record: Json, key: string, at: string): void {
  if (typeof record[key] !== "boolean") throw new ShapeError(`${path(at, key)}: expected true or false`);
}

function oneOf(record: Json, key: string, values: readonly string[], at: string): void {
  const value = record[key];
  if (typeof value !== "string" || !values.includes(value)) {
    throw new ShapeError(`${path(at, key)}: expected one of ${values.join(", ")}`);
  }
}

function array(record: Json, key: string, at: string): unknown[] {
  const value = record[key];
  if (!Array.isArray(value)) throw new ShapeError(`${path(at, key)}: expected an array`);
  return value;
}

function strings(record: Json, key: string, at: string): void {
  array(record, key, at).forEach((item, i) => {
    if (typeof item !== "string") throw new ShapeError(`${path(at, key)}[${i}]: expected a string`);
  });
}

function objects(record: Json, key: string, at: string, check: (item: Json, at: string) => void): void {
  array(record, key, at).forEach((item, i) => {
    const where = `${path(at, key)}[${i}]`;
    check(object(item, where), where);
  });
}

function checkVersion(version: Json, at: string): void {
  string(version, "version", at);
  oneOf(version, "status", VERSION_STATUSES, at);
  strings(version, "platforms_pushed", at);
  objects(version, "platforms_failed", at, (failure, where) => {
    string(failure, "platform", where);
    oneOf(failure, "reason", FAILURE_REASONS, where);
    string(failure, "message", where);
    optionalString(failure, "job_url", where);
  });
  objects(version, "test_failures", at, (failure, where) => {
    for (const key of ["platform", "container", "test", "message"]) string(failure, key, where);
  });
  objects(version, "platforms_excluded", at, (excluded, where) => {
    string(excluded, "platform", where);
    optionalString(excluded, "reason", where);
  });
  strings(version, "cascade_tags_written", at);
}

function checkAnnounce(announce: Json, at: string): void {
  string(announce, "package", at);
  oneOf(announce, "status", ANNOUNCE_STATUSES, at);
  if (announce.tags !== undefined) strings(announce, "tags", at);
  optionalString(announce, "error", at);
  optionalString(announce, "request_url", at);
}

function checkSummary(doc: unknown): RunSummary {
  const root = object(doc, "the document");
  if (root.schema_version !== RUN_SUMMARY_SCHEMA_VERSION) {
    const found =
      root.schema_version === undefined
        ? "no schema_version"
        : `schema_version ${JSON.stringify(root.schema_version)}`;
    throw new ShapeError(`${found}; this pkg-mirror reads schema_version ${RUN_SUMMARY_SCHEMA_VERSION}`);
  }
  const at = "";
  string(root, "mirror", at);
  string(root, "target", at);
  for (const key of ["run_url", "push_job_url", "source_url"]) optionalString(root, key, at);
  objects(root, "versions", at, checkVersion);
  if (root.announce !== undefined) checkAnnounce(object(root.announce, "announce"), "announce");
  boolean(root, "any_red", at);
  boolean(root, "any_new_green", at);
  return root as unknown as RunSummary;
}

/** Parses the text of a run summary read from `file` (named in errors); exit 65 on any problem. */
export function parseRunSummary(text: string, file: string): RunSummary {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new PkgError(ExitCode.Data, `${file}: not a run summary: not JSON (${reason})`, { cause: error });
  }
  try {
    return checkSummary(doc);
  } catch (error) {
    if (error instanceof ShapeError)
      throw new PkgError(ExitCode.Data, `${file}: not a run summary: ${error.message}`);
    throw error;
  }
}
