import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli, spawnCollect, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { base, config } from "../support/config-case.js";

const bin = fileURLToPath(new URL("../../bin/pkg-catalog.js", import.meta.url));
let work: TempDir;

beforeAll(async () => {
  work = await tempDir("catalog-validate-cli-");
  await writeFile(join(work.path, "catalog.config.json"), JSON.stringify(base()));
  await writeFile(
    join(work.path, "typo.json"),
    JSON.stringify(config({ brand: { title: "t", tagline: "x" } })),
  );
  await mkdir(join(work.path, "site"));
  await writeFile(join(work.path, "site", "catalog.json"), JSON.stringify(config({ css: "../outside.css" })));
});
afterAll(async () => {
  await work?.remove();
});

const run = (args: string[]) => runCli(bin, ["validate", ...args], { cwd: work.path });

describe("pkg-catalog validate", () => {
  it("reads catalog.config.json in the working directory by default: ok, exit 0", async () => {
    const result = await run([]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("ok: catalog.config.json\n");
    expect(result.stdout).toBe("");
  });

  it("prints {ok, file} as JSON on stdout with --format json", async () => {
    const result = await run(["catalog.config.json", "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, file: "catalog.config.json" });
  });

  it("exits 65 with the one-line message naming the code and the key path", async () => {
    const result = await run(["typo.json"]);
    expect(result.code).toBe(65);
    expect(result.stderr).toBe("pkg-catalog: UNKNOWN_KEY: brand.tagline is not a known key\n");
    expect(result.stdout).toBe("");
  });

  it("exits 65 on PATH_ESCAPE, naming the raw and the resolved path", async () => {
    const result = await run(["site/catalog.json"]);
    expect(result.code).toBe(65);
    expect(result.stderr.trim()).toBe(
      `pkg-catalog: PATH_ESCAPE: css "../outside.css" resolves to ${work.path}/outside.css, outside the config directory ${work.path}/site`,
    );
  });

  it("reports the error as data too with --format json, still exiting 65", async () => {
    const result = await run(["typo.json", "--format", "json"]);
    expect(result.code).toBe(65);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      file: "typo.json",
      code: "UNKNOWN_KEY",
      keyPath: "brand.tagline",
      message: "UNKNOWN_KEY: brand.tagline is not a known key",
    });
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("is MISSING_FILE, exit 65, for a file that is not there", async () => {
    const result = await run(["absent.json"]);
    expect(result.code).toBe(65);
    expect(result.stderr).toBe(`pkg-catalog: MISSING_FILE: ${work.path}/absent.json does not exist\n`);
  });

  it("is READ_ERROR, exit 65, for a file it may not read (EACCES)", async () => {
    const file = join(work.path, "unreadable.json");
    await writeFile(file, JSON.stringify(base()));
    await chmod(file, 0o000);
    await chmod(work.path, 0o711);
    // root reads anything: drop to nobody so the permission check is real
    const result =
      process.getuid?.() === 0
        ? await spawnCollect(
            "setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, bin, "validate", file],
            { cwd: work.path, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } },
          )
        : await run([file]);
    expect(result.code).toBe(65);
    expect(result.stderr).toMatch(/^pkg-catalog: READ_ERROR: \S*unreadable\.json cannot be read: EACCES/);
  });

  it("is a usage error (64) for an unknown --format", async () => {
    const result = await run(["--format", "yaml"]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("--format must be text or json");
  });

  it("documents itself in --help", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: pkg-catalog validate [options] [config]");
    expect(result.stdout).toContain('(default: "catalog.config.json")');
    expect(result.stdout).toContain("--format <format>");
    expect(result.stdout).toContain("exits 65");
  });

  it("is listed in the program's --help", async () => {
    const result = await runCli(bin, ["--help"], { cwd: work.path });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/validate \[options\] \[config\]/);
  });
});
