import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { MediaType, openLayout } from "@pkg/oci";
import { createTestCa, runCli, type TempDir, type TestCa, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INDEX_FILES, PACKAGE, ROOT } from "../../package/test/support/announce-forge.js";
import { ForgeoneServer } from "../../package/test/support/forgeone-server.js";
import { GitHttpServer } from "../../package/test/support/git-http-server.js";
import { type Json, spec } from "./support/spec-case.js";

const bin = fileURLToPath(new URL("../bin/pkg-mirror.js", import.meta.url));
const JOB_TOKEN = "glcbt-pipeline-cli-job-token-1618";
const NEW_PACKAGE = ["--label", "example.org", "--owner", "alice:7"];

let ca: TestCa;
let work: TempDir;
let layout: string;

/** Tags of the target repository in the layout, each its own (empty) image index. */
async function tagLayout(tags: string[]): Promise<void> {
  const target = openLayout(layout, "acme/tool");
  for (const tag of tags) {
    const bytes = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MediaType.ImageIndex,
        manifests: [],
        annotations: { tag },
      }),
    );
    await target.pushManifest(bytes, MediaType.ImageIndex, tag);
  }
}

async function writeSpec(name: string, announce: Json | undefined): Promise<string> {
  const file = join(work.path, name);
  await writeFile(
    file,
    spec({ target: { registry: "registry.example", repository: "acme/tool" }, announce }),
  );
  return file;
}

/** `pkg-mirror package pipeline announce --spec FILE --layout LAYOUT --format json` plus `args`. */
function announce(specFile: string, args: string[], env: Record<string, string> = {}) {
  return runCli(
    bin,
    ["package", "pipeline", "announce", "--spec", specFile, "--layout", layout, "--format", "json", ...args],
    {
      cwd: work.path,
      env: { PKG_ANNOUNCE_TOKEN: "", CI_JOB_TOKEN: "", PKG_EXTRA_CA_CERTS: ca.certPath, ...env },
    },
  );
}

beforeAll(async () => {
  ca = await createTestCa();
  work = await tempDir("pkg-pipeline-announce-cli-");
  await mkdir(join(work.path, ".git"));
  layout = join(work.path, "layout");
  await tagLayout(["1.0.0", "1.0", "latest"]);
});
afterAll(async () => {
  await work?.remove();
  await ca?.remove();
});

describe("pkg-mirror package pipeline announce", () => {
  it("a spec without an announce block is exit 64", async () => {
    const result = await announce(await writeSpec("plain.yml", undefined), [
      "--out",
      join(work.path, "none"),
    ]);
    expect(result.code, result.stderr).toBe(64);
    expect(result.stderr).toContain("has no announce block");
    expect(result.stdout).toBe("");
  });

  it("--out: every tag of the layout into a local index (exit 0); again: nothing_to_announce; --dry-run writes nothing; a yank marker stays", async () => {
    const file = await writeSpec("local.yml", { package: PACKAGE });
    const out = join(work.path, "index");
    const dry = await announce(file, ["--out", out, "--dry-run", ...NEW_PACKAGE]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ status: "announced", change: "updated", dry_run: true });
    await expect(readdir(out)).rejects.toThrow();

    const first = await announce(file, ["--out", out, ...NEW_PACKAGE]);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      package: PACKAGE,
      status: "announced",
      destination: out,
    });
    const rootFile = join(out, ROOT);
    const root = JSON.parse(await readFile(rootFile, "utf8"));
    expect(Object.keys(root.tags).sort()).toEqual(["1.0", "1.0.0", "latest"]);

    root.tags["1.0"].yanked = { reason: "superseded", at: "2026-01-02T03:04:05Z" };
    await writeFile(rootFile, `${JSON.stringify(root, null, 2)}\n`);
    await tagLayout(["1.1.0"]);
    const dryAgain = await announce(file, ["--out", out, "--dry-run"]);
    expect(JSON.parse(dryAgain.stdout)).toMatchObject({
      status: "announced",
      tags: ["1.1.0"],
      dry_run: true,
    });
    expect(Object.keys(JSON.parse(await readFile(rootFile, "utf8")).tags)).not.toContain("1.1.0");

    const caughtUp = await announce(file, ["--out", out]);
    expect(caughtUp.code, caughtUp.stderr).toBe(0);
    const after = JSON.parse(await readFile(rootFile, "utf8"));
    expect(Object.keys(after.tags).sort()).toEqual(["1.0", "1.0.0", "1.1.0", "latest"]);
    expect(after.tags["1.0"].yanked).toEqual({ reason: "superseded", at: "2026-01-02T03:04:05Z" });

    const unchanged = await announce(file, ["--out", out, "--format", "text"]);
    expect(unchanged.code, unchanged.stderr).toBe(0);
    expect(unchanged.stderr).toContain("unchanged");
  });

  it("without PKG_ANNOUNCE_TOKEN the announce is skipped with a notice, exit 0, and the forge is not asked", async () => {
    const forge = await ForgeoneServer.start(ca);
    try {
      forge.createRepo("acme/index", INDEX_FILES);
      const file = await writeSpec("api.yml", {
        package: PACKAGE,
        index_repo: `${forge.host}/acme/index`,
        forge: "forgeone",
      });
      const result = await announce(file, ["--format", "text"]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain("notice: index announce skipped: no PKG_ANNOUNCE_TOKEN");
      expect(forge.calls).toHaveLength(0);
    } finally {
      await forge.stop();
    }
  });

  it("a failed announce is exit 1, its detail in the report (the job token off the allowlist, 77)", async () => {
    const host = await GitHttpServer.start(ca);
    try {
      host.users.set("gitlab-ci-token", { password: JOB_TOKEN, kind: "job" });
      host.jobTokenAllowlisted = false;
      await host.createRepo("acme/index", INDEX_FILES);
      const file = await writeSpec("git.yml", {
        package: PACKAGE,
        index_repo: `${host.host}/acme/index`,
        forge: "forgetwo",
        transport: "git",
      });
      const result = await announce(file, NEW_PACKAGE, { CI_JOB_TOKEN: JOB_TOKEN, CI_SERVER_URL: host.url });
      expect(result.code, result.stderr).toBe(1);
      expect(JSON.parse(result.stdout)).toMatchObject({
        status: "failed",
        detail: "forge_publisher_not_allowlisted",
      });
      expect(result.stderr).toContain("index announce of acme/tool");
      expect(result.stderr).not.toContain(JOB_TOKEN);
    } finally {
      await host.stop();
    }
  });
});
