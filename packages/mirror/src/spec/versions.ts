import { isMap } from "yaml";
import { readCron } from "./cron.js";
import type { Field } from "./field.js";
import { type GeneratorSpec, readGenerator } from "./generator.js";
import { readHttpUrl } from "./http-url.js";
import { readVersionLiteral } from "./version-literal.js";

/**
 * Where a bound's version comes from: a literal, or a value resolved once per run (never at load):
 * an https URL's body, a generator's stdout, a file's contents (relative to the spec directory).
 */
export type BoundVersion = string | { url: string } | { generator: GeneratorSpec } | { file: string };

export interface VersionBound {
  version: BoundVersion;
  /** Whether a candidate equal to the edge is inside the window. */
  inclusive: boolean;
}

export const BACKFILL_ORDERS = ["newest_first", "oldest_first"] as const;

/** `versions`: the version window and the per-run rate limiter. */
export interface Versions {
  min?: VersionBound;
  max?: VersionBound;
  /** Cap on new versions published per run; absent = no cap. */
  new_per_run?: number;
  backfill: (typeof BACKFILL_ORDERS)[number];
  /** Cron of the generated workflow's schedule trigger, verbatim. */
  poll_interval?: string;
}

export function readVersions(field: Field): Versions | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["min", "max", "new_per_run", "backfill", "poll_interval"]);
  const versions: Versions = { backfill: "newest_first" };
  let ok = true;
  // a bare string is inclusive as a lower bound and exclusive as an upper one
  for (const [key, inclusive] of [
    ["min", true],
    ["max", false],
  ] as const) {
    const bound = map.get(key);
    if (!bound.present) continue;
    const value = readBound(bound, inclusive);
    if (value === undefined) ok = false;
    else versions[key] = value;
  }
  const perRun = map.get("new_per_run");
  if (perRun.present) {
    const value = perRun.integer({ min: 1 });
    if (value === undefined) ok = false;
    else versions.new_per_run = value;
  }
  const backfill = map.get("backfill");
  if (backfill.present) {
    const value = backfill.oneOf(BACKFILL_ORDERS);
    if (value === undefined) ok = false;
    else versions.backfill = value;
  }
  const poll = map.get("poll_interval");
  if (poll.present) {
    const value = readCron(poll);
    if (value === undefined) ok = false;
    else versions.poll_interval = value;
  }
  return ok ? versions : undefined;
}

function readBound(field: Field, bareInclusive: boolean): VersionBound | undefined {
  if (!isMap(field.value)) {
    const version = readVersionLiteral(field);
    return version === undefined ? undefined : { version, inclusive: bareInclusive };
  }
  const map = field.map();
  if (!map) return undefined;
  map.only(["version", "inclusive"]);
  const versionField = map.require("version");
  const version = versionField && readBoundVersion(versionField);
  const inclusive = map.require("inclusive")?.boolean();
  if (version === undefined || inclusive === undefined) return undefined;
  return { version, inclusive };
}

function readBoundVersion(field: Field): BoundVersion | undefined {
  if (!isMap(field.value)) return readVersionLiteral(field);
  const map = field.map();
  if (!map) return undefined;
  map.only(["url", "generator", "file"]);
  const form = map.exactlyOne(["url", "generator", "file"]);
  if (form === "url") {
    const url = readHttpsUrl(map.get("url"));
    return url === undefined ? undefined : { url };
  }
  if (form === "generator") {
    const generator = readGenerator(map.get("generator"));
    return generator === undefined ? undefined : { generator };
  }
  if (form === "file") {
    const file = map.get("file").string({ nonEmpty: true });
    return file === undefined ? undefined : { file };
  }
  return undefined;
}

function readHttpsUrl(field: Field): string | undefined {
  const url = readHttpUrl(field);
  if (url === undefined) return undefined;
  return /^https:/i.test(url)
    ? url
    : field.fail("a version bound is fetched over https only; write an https:// URL");
}
