import { readdirSync } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/mirror-specs/", import.meta.url));
const bin = fileURLToPath(new URL("../bin/pkg-mirror.js", import.meta.url));
const files = readdirSync(fixtures).filter((name) => name.endsWith(".yml"));

/** Directories a fixture's repository holds beside it (the loader checks that they exist). */
const LAYOUT: Record<string, string[]> = { "generator-source.yml": ["scripts"] };

let work: TempDir;
beforeAll(async () => {
  work = await tempDir("mirror-fixtures-");
});
afterAll(async () => {
  await work?.remove();
});

/** The fixture in a directory of its own, laid out as its repository is. */
async function placed(name: string): Promise<string> {
  const dir = join(work.path, name.replace(/\.yml$/, ""));
  await mkdir(dir, { recursive: true });
  for (const sub of LAYOUT[name] ?? []) await mkdir(join(dir, sub), { recursive: true });
  await copyFile(`${fixtures}${name}`, join(dir, name));
  return join(dir, name);
}

describe("published-style specs load", () => {
  it("finds the fixtures", () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files)("pkg-mirror package validate %s", async (name) => {
    const result = await runCli(bin, ["package", "validate", await placed(name)]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/: valid: /);
  });

  it.each(files)("%s as JSON", async (name) => {
    const result = await runCli(bin, ["package", "validate", await placed(name), "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: true });
  });
});
