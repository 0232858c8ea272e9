import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runCli } from "@pkg/testkit";
import { describe, expect, it } from "vitest";

const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/mirror-specs/", import.meta.url));
const bin = fileURLToPath(new URL("../bin/pkg-mirror.js", import.meta.url));
const files = readdirSync(fixtures).filter((name) => name.endsWith(".yml"));

describe("published-style specs load", () => {
  it("finds the fixtures", () => {
    expect(files.length).toBeGreaterThanOrEqual(6);
  });

  it.each(files)("pkg-mirror package validate %s", async (name) => {
    const result = await runCli(bin, ["package", "validate", `${fixtures}${name}`]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/: valid: /);
  });

  it.each(files)("%s as JSON", async (name) => {
    const result = await runCli(bin, ["package", "validate", `${fixtures}${name}`, "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: true });
  });
});
