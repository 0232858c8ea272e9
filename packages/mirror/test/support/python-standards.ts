// The rows of test/data/python/packaging-table.json (what Python's `packaging` answers, written by
// test/data/python/generate.py) and our TypeScript standards' answer to each: a row where they
// differ is returned as one line, so a test can show every disagreement at once.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { runCommand } from "@pkg/testkit";
import {
  evaluateMarker,
  formatMarker,
  type MarkerEnvironment,
  MarkerError,
  parseMarker,
} from "../../src/python/markers.js";
import { normalizeName } from "../../src/python/name.js";
import {
  baseVersion,
  compareVersions,
  formatVersion,
  isPrerelease,
  parseVersion,
  publicVersion,
} from "../../src/python/pep440.js";
import { parsePylock } from "../../src/python/pylock.js";
import { parseSpecifierSet, specifierSetContains } from "../../src/python/specifier.js";
import { formatTag, parseWheelFilename, supportedTags } from "../../src/python/tags.js";
import { packagingPath } from "./python-tools.js";

export const TABLE_PATH = fileURLToPath(new URL("../data/python/packaging-table.json", import.meta.url));
export const GENERATOR_PATH = fileURLToPath(new URL("../data/python/generate.py", import.meta.url));
export { PACKAGING, packagingPath } from "./python-tools.js";

// biome-ignore lint/suspicious/noExplicitAny: rows are JSON written by generate.py, checked field by field below
type Row = any;

export async function readTable(): Promise<Row> {
  return JSON.parse(await readFile(TABLE_PATH, "utf8"));
}

/** What generate.py answers now, with the pinned packaging. */
export async function liveTable(): Promise<Row> {
  const path = await packagingPath();
  const { stdout } = await runCommand("python3", [GENERATOR_PATH], {
    env: { ...process.env, PYTHONPATH: path },
  });
  return JSON.parse(stdout);
}

/** Every row where our standards answer differently from the table. */
export function disagreements(table: Row): string[] {
  const out: string[] = [];
  const differ = (what: string, ours: unknown, theirs: unknown): void => {
    if (canonical(ours) !== canonical(theirs)) {
      out.push(`${what}: ours ${canonical(ours)}, packaging ${canonical(theirs)}`);
    }
  };
  for (const row of table.names) differ(`name ${row.input}`, normalizeName(row.input), row.normalized);
  for (const row of table.versions) {
    const v = parseVersion(row.input);
    const ours = v
      ? {
          base: baseVersion(v),
          devrelease: v.dev !== undefined,
          epoch: Number(v.epoch),
          input: row.input,
          local: v.local ? v.local.join(".") : null,
          normalized: formatVersion(v),
          postrelease: v.post !== undefined,
          prerelease: isPrerelease(v),
          public: publicVersion(v),
          release: v.release.map(Number),
          valid: true,
        }
      : { input: row.input, valid: false };
    differ(`version ${JSON.stringify(row.input)}`, ours, row);
  }
  for (const row of table.compare) {
    const a = parseVersion(row.a);
    const b = parseVersion(row.b);
    differ(`compare ${row.a} ${row.b}`, a && b ? compareVersions(a, b) : "invalid", row.result);
  }
  for (const row of table.specifiers) {
    const set = parseSpecifierSet(row.specifier);
    const ours = set
      ? { contains_prereleases: specifierSetContains(set, row.version), valid: true }
      : { valid: false };
    const theirs = row.valid
      ? { contains_prereleases: row.contains_prereleases, valid: true }
      : { valid: false };
    differ(`specifier ${JSON.stringify(row.specifier)} ${row.version}`, ours, theirs);
  }
  for (const row of table.markers) {
    let ours: unknown;
    try {
      const marker = parseMarker(row.marker);
      const results: Record<string, unknown> = {};
      for (const [key, env] of Object.entries(table.environments as Record<string, MarkerEnvironment>)) {
        const prepared = { ...env, extra: normalizeName(env.extra as string) };
        try {
          results[key] = evaluateMarker(marker, prepared);
        } catch (error) {
          if (!(error instanceof MarkerError)) throw error;
          results[key] = "undefined-comparison";
        }
      }
      ours = { marker: row.marker, results, valid: true };
    } catch (error) {
      if (!(error instanceof MarkerError)) throw error;
      ours = { marker: row.marker, valid: false };
    }
    differ(`marker ${JSON.stringify(row.marker)}`, ours, row);
  }
  for (const row of table.wheels) {
    const w = parseWheelFilename(row.filename);
    const ours = w
      ? {
          build: w.build ?? [],
          filename: row.filename,
          name: w.name,
          tags: w.tags.map(formatTag).sort(),
          valid: true,
          version: w.version,
        }
      : { filename: row.filename, valid: false };
    differ(`wheel ${row.filename}`, ours, row);
  }
  for (const row of table.tags) {
    differ(
      `tags ${row.python.join(".")} ${row.abi}`,
      supportedTags(row.python, row.abi, row.platforms),
      row.tags,
    );
  }
  for (const row of table.pylocks) {
    let ours: unknown;
    try {
      const lock = parsePylock(row.text, row.case);
      ours = {
        case: row.case,
        packages: lock.packages.map((p) => ({
          marker: p.marker === undefined ? null : formatMarker(parseMarker(p.marker)),
          name: p.name,
          sdist: p.sdist !== undefined,
          version: p.version ?? null,
          wheels: p.wheels.map((w) => ({
            name: w.name,
            sha256: w.hashes.sha256 ?? null,
            url: w.url ?? null,
          })),
        })),
        requires_python: lock.requiresPython ?? null,
        text: row.text,
        valid: true,
      };
    } catch (error) {
      ours = { case: row.case, text: row.text, valid: false, why: (error as Error).message };
    }
    if (!row.valid) (ours as Record<string, unknown>).why = undefined;
    differ(`pylock ${row.case}`, ours, row);
  }
  return out;
}

/** JSON with object keys sorted at every level and undefined members left out. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
