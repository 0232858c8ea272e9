import { mkdir, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONFIG_ERROR_CODES, ConfigError } from "../../src/config/errors.js";
import { loadCatalogConfig } from "../../src/config/load.js";
import type { CaseInput } from "../support/config-case.js";
import { conformanceCases } from "./conformance.cases.js";

let work: TempDir;
beforeAll(async () => {
  work = await tempDir("catalog-conformance-");
});
afterAll(async () => {
  await work?.remove();
});

/** Puts the row's input where the config file should be. */
async function materialise(input: CaseInput, dir: string, file: string): Promise<void> {
  if ("missing" in input) return;
  if ("directory" in input) return mkdir(file);
  if ("bytes" in input) return writeFile(file, input.bytes);
  for (const path of input.paths ?? []) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    if (path.endsWith("/")) await mkdir(join(dir, path));
    else await writeFile(join(dir, path), "");
  }
  for (const [name, target] of Object.entries(input.symlinks ?? {})) await symlink(target, join(dir, name));
  await writeFile(file, JSON.stringify(input.json, null, 2));
}

function fill(text: string, dir: string): string {
  return text.replaceAll("{dir}", dir).replaceAll("{parent}", dirname(dir));
}

/** The value at a dotted path ("sources.0.label"), or undefined when any step is not an own key. */
function ownAt(value: unknown, path: string): unknown {
  let current = value;
  for (const step of path.split(".")) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

function hasOwnPath(value: unknown, path: string): boolean {
  const steps = path.split(".");
  const last = steps.pop() as string;
  const parent = steps.length === 0 ? value : ownAt(value, steps.join("."));
  return typeof parent === "object" && parent !== null && Object.hasOwn(parent, last);
}

describe("catalog.config.json conformance", () => {
  conformanceCases.forEach((row, index) => {
    it(row.rule, async () => {
      const dir = join(work.path, `case-${index}`);
      await mkdir(dir);
      const file = join(dir, "catalog.config.json");
      await materialise(row.input, dir, file);
      const outcome = await loadCatalogConfig(file).then(
        (config) => ({ config }),
        (error: unknown) => ({ error }),
      );
      if ("refused" in row.expect) {
        const { code, keyPath, message, notShown } = row.expect.refused;
        expect("error" in outcome, `expected ${code}, but the file loaded`).toBe(true);
        const error = "error" in outcome ? outcome.error : undefined;
        expect(error).toBeInstanceOf(ConfigError);
        if (!(error instanceof ConfigError)) return;
        expect(error.code).toBe(code);
        expect(error.exitCode).toBe(65);
        expect(error.message.startsWith(`${code}: `)).toBe(true);
        expect(error.message).toContain(fill(message, dir));
        expect(error.keyPath).toBe(keyPath);
        if (keyPath) expect(error.message).toContain(keyPath);
        expect(error.message).not.toContain("\n");
        for (const secret of [notShown ?? []].flat()) expect(error.message).not.toContain(secret);
      } else {
        if ("error" in outcome) throw outcome.error;
        const { config } = outcome;
        const { parsed, absent = [] } = row.expect.accepted;
        expect(config.file).toBe(file);
        expect(config.dir).toBe(dir);
        if (parsed) expect(config).toMatchObject(parsed(dir));
        for (const path of absent) expect(hasOwnPath(config, path), `${path} should be absent`).toBe(false);
      }
    });
  });
});

describe("the conformance table itself", () => {
  it("names every rule once", () => {
    const rules = conformanceCases.map((row) => row.rule);
    expect(rules.filter((rule, i) => rules.indexOf(rule) !== i)).toEqual([]);
  });

  it("covers every error code of the spec, here or where it is raised", () => {
    const covered = new Set(
      conformanceCases.flatMap((row) => [
        ...("refused" in row.expect ? [row.expect.refused.code] : []),
        ...(row.raisedElsewhere ? [row.raisedElsewhere.code] : []),
      ]),
    );
    expect(CONFIG_ERROR_CODES.filter((code) => !covered.has(code))).toEqual([]);
  });
});
