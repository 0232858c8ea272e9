/// <reference types="vite/client" />
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runCli } from "@pkg/testkit";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { MIRROR_SCHEMA_ID, mirrorSchema } from "../src/schema/mirror.js";
import type { ConformanceCase } from "./support/spec-case.js";

/*
 * The editor schema and the loader must agree: every spec the loader accepts validates, and every
 * spec it refuses is refused by the schema too, except the rows below. The loader is the
 * authority; the schema only says less.
 */

/**
 * LOADER_ONLY: the documented differences. Each entry is the `rule` text of a refused conformance
 * row whose refusal a JSON Schema cannot state, grouped under why it cannot.
 */
const LOADER_ONLY_GROUPS: Record<string, string[]> = {
  "RE2 compilation: whether a pattern compiles as RE2 (and not only as ECMA-262) needs the RE2 parser": [
    "forgeone_release.tag_pattern: a regex that does not compile is refused",
    "forgeone_release.tag_pattern: backtracking-only syntax (lookahead) is not RE2",
    "assets: each regex compiles as RE2",
    "assets: backreferences (not linear-time) are refused",
    "variants.assets: checked like top-level assets",
  ],
  "YAML typing lost in the JSON data model: an unquoted key 1.10 arrives as the string 1.1, a valid version":
    ["url_index.versions: an unquoted key YAML reads as a number is refused (1.10 would become 1.1)"],
  "uniqueness of one field across list items: uniqueItems compares whole items only": [
    "python.entrypoints: a name is listed once",
    "tests: a name used twice in one list is refused at the second",
    "tests: a name used twice in a platform's own list is refused",
    "containers: two containers with one id are refused",
    "variants: duplicate names are rejected",
  ],
  "the extends chain: other files, the repository root and cycles are outside one document": [
    "extends: a base above the repository root is a usage error",
    "extends: a symlink inside the repository leading out of it is a usage error",
    "extends: a symlinked directory leading out of the repository is a usage error",
    "extends: a cycle is refused",
    "extends: a missing parent is refused",
    "extends: an unknown key in the parent is refused in the parent's file",
    "extends: the merged spec still needs the required keys",
  ],
  "comparing two values: a schema constrains each value, it never compares them": [
    "cascade.schedule: must not equal versions.poll_interval",
    "cascade.schedule: equal up to spacing is still equal to versions.poll_interval",
  ],
  "cross-section key sets: the keys of wheels against the keys of platforms": [
    "wheels/platforms: every wheels key's base is declared under platforms",
    "wheels/platforms: a +libc key's base is what platforms declares",
    "wheels/platforms: every declared platform is covered by a wheels key",
    "wheels/platforms: the cross-validation holds for pylock too",
  ],
  "forge inference: the forge follows from the hosts of fork and index_repo (or the default index), which a schema would have to compare across fields":
    [
      "announce.forge: required for a self-hosted host",
      "announce.forge: contradicting a public host is refused",
      "announce.forge: forgetwo without index_repo contradicts the default index",
      "announce.index_repo: a nested namespace on forgeone is refused",
      "announce.fork: a nested namespace on forgeone is refused",
      "announce.fork: on another host than index_repo is refused",
      "announce.fork: a fork on gitlab.com against the default index is refused",
      "announce.transport: git on forgeone is refused",
    ],
  "file existence: a path is checked on disk, against the spec's directory or the repository root": [
    "url_index.generator.working_directory: must exist, relative to the spec's directory",
    "url_index.generator.working_directory: a file is not a directory",
    "pylock.path: the lock must exist (exit 65, naming the path)",
    "pylock.path: a directory is not a lock file",
    "catalog.readme: set and missing is refused",
    "catalog.logo: set and missing is refused (no probing when set)",
    "catalog.readme: a directory is not a file",
    "metadata.default: the file must exist at load",
    "metadata.platforms: every path must exist at load",
    "metadata.default: a directory is not a metadata file",
    "variants.metadata: paths must exist",
  ],
  "file contents: bin_scan reads the metadata files the spec names to find a scan target": [
    `bin_scan: auto on metadata whose PATH is the bare \${installPath} fails at load, naming the file`,
    `bin_scan: verify on the bare \${installPath} fails too`,
    "bin_scan: a declared binaries list does not exempt verify",
    `bin_scan: a trailing slash is still the bare \${installPath}`,
    "bin_scan: metadata with no path variable offers no scan target",
    "bin_scan: a private path variable does not reach the interface",
    "bin_scan: a constant variable is no scan target",
    "bin_scan: a dependency's directory is not this package's scan target",
    "bin_scan: every per-platform metadata file is checked",
    "bin_scan: a file that is not valid metadata is refused when it must be scanned",
    "bin_scan: a variant inheriting the top-level value and metadata is checked, naming the variant",
    "bin_scan: a variant's own metadata is checked under variants.<name>",
    "bin_scan: a variant's auto applies to the top-level metadata it inherits",
  ],
};
const LOADER_ONLY = new Map(
  Object.entries(LOADER_ONLY_GROUPS).flatMap(([why, rules]) => rules.map((rule) => [rule, why] as const)),
);

const bin = fileURLToPath(new URL("../bin/pkg-mirror.js", import.meta.url));
const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/mirror-specs/", import.meta.url));

const modules = import.meta.glob<{ cases: ConformanceCase[] }>("./conformance/*.cases.ts", { eager: true });
const tables = Object.entries(modules).map(
  ([file, mod]) => [file.replace(/^\.\/conformance\/|\.cases\.ts$/g, ""), mod.cases] as const,
);
const refusedRules = new Set(
  tables.flatMap(([, rows]) => rows.filter((r) => r.exit !== 0).map((r) => r.rule)),
);

function compile(schema: object) {
  // strictTypes and strictRequired off: `if`/`not`/`oneOf` subschemas name keys and values the
  // enclosing schema declares and types; every other strict check (unknown keywords, formats) stays on
  const ajv = new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
  return ajv.compile(schema);
}

const validate = compile(mirrorSchema);

/** The schema's verdict on a YAML text; a text the YAML parser refuses is refused for editors too. */
function verdict(yaml: string): { valid: boolean; errors: string } {
  let value: unknown;
  try {
    value = parse(yaml, { maxAliasCount: 100 });
  } catch (error) {
    return { valid: false, errors: (error as Error).message };
  }
  const valid = validate(value) as boolean;
  return { valid, errors: describeErrors(validate.errors) };
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map((e) => `${e.instancePath || "/"} ${e.message ?? ""} ${JSON.stringify(e.params)}`)
    .join("\n");
}

describe("the mirror.yml schema", () => {
  it("is a valid draft 2020-12 schema with its $id", () => {
    expect(mirrorSchema.$id).toBe(MIRROR_SCHEMA_ID);
    expect(MIRROR_SCHEMA_ID).toMatch(/\/schemas\/mirror\/v1\.json$/);
    expect(typeof validate).toBe("function");
  });

  it("refuses an unknown top-level key and a missing required one", () => {
    expect(
      verdict("name: a\ntarget: {registry: ghcr.io, repository: a}\nsource: {type: pypi}\nnope: 1").valid,
    ).toBe(false);
    expect(verdict("target: {registry: ghcr.io, repository: a}").valid).toBe(false);
    // a child spec takes the required keys from the file it extends
    expect(verdict("extends: ../base.yml\ntarget: {registry: ghcr.io, repository: a}").valid).toBe(true);
  });

  const files = readdirSync(fixtures).filter((name) => name.endsWith(".yml"));
  it("finds the real specs", () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });
  it.each(files)("accepts the real spec %s", (name) => {
    const result = verdict(readFileSync(`${fixtures}${name}`, "utf8"));
    expect(result.valid, result.errors).toBe(true);
  });
});

describe.each(tables)("agrees with the loader on %s rows", (_section, rows) => {
  it.each(rows.map((row) => [row.rule, row] as const))("%s", (rule, row) => {
    const result = verdict(row.yaml);
    if (row.exit === 0) {
      expect(result.valid, `the loader accepts this spec; the schema says:\n${result.errors}`).toBe(true);
    } else if (LOADER_ONLY.has(rule)) {
      expect(result.valid, "listed as LOADER_ONLY, but the schema refuses it: drop it from the list").toBe(
        true,
      );
    } else {
      expect(result.valid, "the loader refuses this spec; the schema accepts it").toBe(false);
    }
  });
});

it("LOADER_ONLY names only refused conformance rows", () => {
  expect([...LOADER_ONLY.keys()].filter((rule) => !refusedRules.has(rule))).toEqual([]);
});

describe("pkg-mirror schema mirror", () => {
  it("prints the schema, which compiles", async () => {
    const result = await runCli(bin, ["schema", "mirror"]);
    expect(result.code, result.stderr).toBe(0);
    const printed = JSON.parse(result.stdout) as object;
    expect(printed).toEqual(JSON.parse(JSON.stringify(mirrorSchema)));
    expect(typeof compile(printed)).toBe("function");
  });
});
