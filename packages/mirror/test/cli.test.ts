import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCli, type TempDir, tempDir } from "@pkg/testkit";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pythonSpec, spec } from "./support/spec-case.js";

const bin = fileURLToPath(new URL("../bin/pkg-mirror.js", import.meta.url));
let work: TempDir;

beforeAll(async () => {
  work = await tempDir("pkg-mirror-cli-");
  await mkdir(join(work.path, ".git"));
});
afterAll(async () => {
  await work?.remove();
});

async function validate(name: string, yaml: string, extra: string[] = []) {
  await writeFile(join(work.path, name), yaml);
  return runCli(bin, ["package", "validate", name, ...extra], { cwd: work.path });
}

describe("pkg-mirror package validate", () => {
  it("exits 0 with a one-line summary for a valid spec", async () => {
    const result = await validate("ok.yml", spec());
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr.trim()).toBe(
      "ok.yml: valid: tool from forgeone_release to ghcr.io/acme/tools/tool, 1 platform",
    );
    expect(result.stdout).toBe("");
  });

  it("names file:line:col, the key path and the closest key for one problem (exit 65)", async () => {
    const result = await validate("typo.yml", `${spec()}cascad: true\n`);
    expect(result.code).toBe(65);
    expect(result.stderr.trim()).toBe(
      'pkg-mirror: typo.yml:12:1: cascad: unknown key "cascad" (did you mean "cascade"?)',
    );
  });

  it("lists every problem, one line each, in file order; a usage problem anywhere decides the code (64)", async () => {
    const yaml = spec({
      cascade: "sometimes",
      sign: { key: { ref: "file://k.pem", passphrase: "s3cr3t-value" } },
    });
    const result = await validate("many.yml", yaml);
    const lines = result.stderr.trim().split("\n");
    expect(lines.at(-1)).toBe("pkg-mirror: many.yml: 2 problems");
    expect(lines.slice(0, -1).map((l) => l.split(": ")[1])).toEqual(["cascade", "sign.key.passphrase"]);
    expect(result.code).toBe(64);
    expect(result.stderr).not.toContain("s3cr3t-value");
  });

  it("exits 64 for a usage error", async () => {
    const result = await validate(
      "usage.yml",
      spec({ notify: { chat: { webhook_secret: "https://discord.com/api/webhooks/1/x" } } }),
    );
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/notify\.chat\.webhook_secret/);
    expect(result.stderr).not.toContain("discord.com/api");
  });

  it("warns, and exits 0, when literal versions.min and max leave the window empty", async () => {
    const result = await validate("empty-window.yml", spec({ versions: { min: "2.0.0", max: "1.5.0" } }));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'warning: empty-window.yml:13:8: versions.min: versions.min "2.0.0" and versions.max "1.5.0": min is above max, so the version window is empty and nothing is mirrored',
    );
    expect(result.stderr).toMatch(/empty-window\.yml: valid: /);
  });

  it("resolves a pylock path against the repository root, not the spec's directory", async () => {
    await mkdir(join(work.path, "apps", "cowsay"), { recursive: true });
    await mkdir(join(work.path, "locks"), { recursive: true });
    await writeFile(join(work.path, "locks", "pylock.cowsay.toml"), 'lock-version = "1.0"\n');
    await writeFile(join(work.path, "apps", "cowsay", "pylock.toml"), 'lock-version = "1.0"\n');
    const yaml = (path: string) => pythonSpec({ source: { type: "pylock", path } });
    const found = await validate("apps/cowsay/mirror.yml", yaml("locks/pylock.cowsay.toml"));
    expect(found.code, found.stderr).toBe(0);
    // beside the spec is not where the path points
    const missing = await validate("apps/cowsay/mirror.yml", yaml("pylock.toml"));
    expect(missing.code).toBe(65);
    expect(missing.stderr).toContain(
      `apps/cowsay/mirror.yml:7:9: source.path: lock file "pylock.toml" not found (the path is relative to the repository root ${work.path})`,
    );
  });

  it("gives the problems as data with --format json", async () => {
    const result = await validate("json.yml", `${spec()}cascad: true\n`, ["--format", "json"]);
    expect(result.code).toBe(65);
    expect(JSON.parse(result.stdout)).toEqual({
      valid: false,
      file: "json.yml",
      errors: [
        {
          exitCode: 65,
          file: "json.yml",
          line: 12,
          col: 1,
          keyPath: "cascad",
          message: expect.stringContaining("unknown key"),
        },
      ],
    });
  });

  it("reports a missing spec file as a data error", async () => {
    const result = await runCli(bin, ["package", "validate", "absent.yml"], { cwd: work.path });
    expect(result.code).toBe(65);
    expect(result.stderr.trim()).toBe("pkg-mirror: absent.yml:1:1: (document): no such file");
  });

  it("refuses an unknown option with exit 64", async () => {
    const result = await runCli(bin, ["package", "validate", "--frobnicate"], { cwd: work.path });
    expect(result.code).toBe(64);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("pkg-mirror schema url-index", () => {
  it("prints a JSON Schema that accepts both asset forms and refuses a bad digest", async () => {
    const result = await runCli(bin, ["schema", "url-index"]);
    expect(result.code, result.stderr).toBe(0);
    const schema = JSON.parse(result.stdout);
    expect(schema.$id).toMatch(/\/schemas\/url-index\/v1\.json$/);
    const check = new Ajv2020({ strict: false }).compile(schema);
    const digest = "a".repeat(64);
    const good = {
      versions: {
        "1.2.3": {
          assets: {
            "tool-linux.tar.gz": "https://dl.example.com/tool-linux.tar.gz",
            "tool-mac.tar.gz": { url: "https://dl.example.com/tool-mac.tar.gz", sha256: `sha256:${digest}` },
          },
        },
        "1.3.0-rc1": {
          prerelease: true,
          assets: { "x.zip": { url: "https://dl.example.com/x.zip", sha256: digest } },
        },
      },
    };
    expect(check(good), JSON.stringify(check.errors)).toBe(true);
    expect(check({ versions: { "1.0.0": { assets: { a: { url: "https://x.test/a" } } } } })).toBe(false);
    expect(
      check({ versions: { "1.0.0": { assets: { a: { url: "https://x.test/a", sha256: "abc" } } } } }),
    ).toBe(false);
    expect(check({ versions: { "1.0.0": { assets: {}, extra: 1 } } })).toBe(false);
  });
});
