import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256Of } from "@pkg/index";
import { openRegistry, type Target } from "@pkg/oci";
import {
  type CliResult,
  type FaultProxy,
  type RunningRegistry,
  runCli,
  startFaultProxy,
  startRegistry,
  type TempDir,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { damageRepository, publish, writeIndex } from "../../package/test/support/cascade-repo.js";
import { startForge } from "./support/forge.js";
import { type SpecObject, spec } from "./support/spec-case.js";
import { mirrorBin, pkgBin, tagDigestsOf } from "./support/sync-run.js";

let registry: RunningRegistry;
let proxy: FaultProxy;
let work: TempDir;
/** The spec's upstream (`acme/tool`): no release, so every published version lies outside the window. */
let forge: TestServer;

beforeAll(async () => {
  registry = await startRegistry();
  proxy = await startFaultProxy(registry.url);
  forge = await startForge({ repo: "acme/tool", releases: [] });
  work = await tempDir("pkg-mirror-cascade-");
  await mkdir(join(work.path, ".git"));
});
afterAll(async () => {
  await forge?.stop();
  await proxy?.stop();
  await registry?.stop();
  await work?.remove();
});

const repo = (name: string): Target => openRegistry({ host: registry.host, repository: name }, { env: {} });

async function writeSpec(name: string, repository: string, extra: SpecObject = {}, host = registry.host) {
  await writeFile(join(work.path, name), spec({ target: { registry: host, repository }, ...extra }));
  return name;
}

function pipeline(args: string[], forgeUrl = forge.url): Promise<CliResult> {
  return runCli(mirrorBin, ["package", "pipeline", ...args], {
    cwd: work.path,
    env: { PKG_ANNOUNCE_TOKEN: "", PKG_FORGEONE_API_URL: forgeUrl },
  });
}

interface CascadeJson {
  dry_run: boolean;
  planned: Array<{ tag: string; status: string }>;
  outcomes: Array<{ tag: string; outcome: string }>;
  moved_tags: string[];
  remaining: number;
  announce?: { status: string; tags?: string[] };
}

const MOVED = ["1", "1.0", "1.0.0", "1.1", "1.2", "1.2.0", "1.3", "1.3.0", "2", "latest"];

describe("pkg-mirror package pipeline cascade", () => {
  it("repairs a damaged target and announces exactly the moved tags; a dry run writes and announces nothing; a healthy run is silent", async () => {
    const target = repo("acme/cascaded");
    await damageRepository(target);
    const file = await writeSpec("cascaded.yml", "acme/cascaded", { announce: { package: "acme/cascaded" } });
    const index = join(work.path, "index");
    const root = join(index, "p/acme/cascaded.json");
    const seeded = await pipeline([
      "announce",
      "--spec",
      file,
      "--out",
      index,
      "--label",
      "example.org",
      "--owner",
      "alice:7",
    ]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const rootBefore = await readFile(root, "utf8");
    const damaged = await tagDigestsOf(target);

    const dry = await pipeline(["cascade", "--spec", file, "--dry-run", "--out", index, "--format", "json"]);
    expect(dry.code, dry.stderr).toBe(65);
    const planned = JSON.parse(dry.stdout) as CascadeJson;
    expect(planned.planned.map((p) => p.tag)).toEqual(MOVED);
    expect(planned.announce).toBeUndefined();
    expect(dry.stderr).toContain("10 rolling tags to repair (dry run: nothing written)");
    expect(await tagDigestsOf(target)).toEqual(damaged);
    expect(await readFile(root, "utf8")).toBe(rootBefore);

    const real = await pipeline(["cascade", "--spec", file, "--out", index, "--format", "json"]);
    expect(real.code, real.stderr).toBe(0);
    const report = JSON.parse(real.stdout) as CascadeJson;
    expect(report.outcomes.map((o) => [o.tag, o.outcome])).toEqual(MOVED.map((tag) => [tag, "written"]));
    expect(report.announce?.status).toBe("announced");
    expect([...(report.announce?.tags ?? [])].sort()).toEqual([...MOVED].sort());
    const tags = JSON.parse(await readFile(root, "utf8")).tags as Record<string, { content: string }>;
    const latest = await target.fetchManifest("latest");
    expect(tags.latest?.content).toBe(sha256Of(latest?.bytes ?? Buffer.alloc(0)));
    expect(Object.keys(tags)).toEqual(expect.arrayContaining(["1.3.0", "1.3", "2"]));

    const check = await runCli(pkgBin, ["package", "cascade", "check", `${registry.host}/acme/cascaded`]);
    expect(check.code, check.stdout).toBe(0);

    const repaired = await tagDigestsOf(target);
    const rootAfter = await readFile(root, "utf8");
    const healthy = await pipeline(["cascade", "--spec", file, "--out", index, "--format", "json"]);
    expect(healthy.code, healthy.stderr).toBe(0);
    const quiet = JSON.parse(healthy.stdout) as CascadeJson;
    expect(quiet).toMatchObject({ planned: [], outcomes: [], moved_tags: [], remaining: 0 });
    expect(quiet.announce).toBeUndefined();
    expect(await tagDigestsOf(target)).toEqual(repaired);
    expect(await readFile(root, "utf8")).toBe(rootAfter);
  });

  it("findings that remain are exit 65; a failed announce is exit 1 before 65; no token is a notice; cascade: false is 64", async () => {
    const target = repo("acme/partly");
    const entries = await publish(target, "1.0.0_20250101000000", ["linux/amd64"], true);
    await publish(target, "1.1.0_20250201000000", ["linux/amd64"], false);
    await writeIndex(target, entries, "3.0");

    const plain = await writeSpec("partly.yml", "acme/partly");
    const left = await pipeline(["cascade", "--spec", plain]);
    expect(left.code, left.stderr).toBe(65);
    expect(left.stdout).toMatch(/^3\.0 +refused \(would-empty-index\)$/m);
    expect(left.stderr).toContain("1 rolling tag left wrong");

    const failing = repo("acme/failing");
    await publish(failing, "1.0.0_20250101000000", ["linux/amd64"], true);
    await publish(failing, "1.1.0_20250201000000", ["linux/amd64"], false);
    await writeIndex(failing, entries, "3.0");
    const notADirectory = join(work.path, "plain-file");
    await writeFile(notADirectory, "not an index\n");
    const announced = await writeSpec("failing.yml", "acme/failing", {
      announce: { package: "acme/failing" },
    });
    const failed = await pipeline(["cascade", "--spec", announced, "--out", notADirectory]);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain("the announce failed");

    const skipped = repo("acme/skipped");
    await publish(skipped, "1.0.0_20250101000000", ["linux/amd64"], false);
    const noToken = await writeSpec("skipped.yml", "acme/skipped", {
      announce: { package: "acme/skipped", index_repo: "github.com/acme/index" },
    });
    const notice = await pipeline(["cascade", "--spec", noToken]);
    expect(notice.code, notice.stderr).toBe(0);
    expect(notice.stderr).toContain("notice: index announce skipped: no PKG_ANNOUNCE_TOKEN");

    const off = await writeSpec("off.yml", "acme/partly", { cascade: false });
    const refused = await pipeline(["cascade", "--spec", off]);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain("cascade: false");
  });

  it("a source that fails to list fails the plan with 69 before anything is written", async () => {
    const target = repo("acme/unplanned");
    await publish(target, "1.0.0_20250101000000", ["linux/amd64"], false);
    const file = await writeSpec("unplanned.yml", "acme/unplanned");
    const before = await tagDigestsOf(target);
    // a forge that does not serve the spec's repository answers its release listing 404
    const elsewhere = await startForge({ repo: "acme/elsewhere", releases: [] });
    try {
      const result = await pipeline(["cascade", "--spec", file], elsewhere.url);
      expect(result.code, result.stderr).toBe(69);
      expect(result.stderr).toContain("404");
      expect(await tagDigestsOf(target)).toEqual(before);
    } finally {
      await elsewhere.stop();
    }
  });

  it("a repair whose writes the registry refuses is exit 1", async () => {
    const target = repo("acme/blocked");
    await publish(target, "1.0.0_20250101000000", ["linux/amd64"], false);
    const file = await writeSpec("blocked.yml", "acme/blocked", {}, proxy.host);
    proxy.setPlan((request) =>
      request.method === "PUT" && request.url.includes("/manifests/")
        ? { status: 400, body: '{"errors":[{"code":"MANIFEST_INVALID","message":"refused"}]}' }
        : "pass",
    );
    try {
      const result = await pipeline(["cascade", "--spec", file, "--format", "json"]);
      expect(result.code, result.stderr).toBe(1);
      const report = JSON.parse(result.stdout) as CascadeJson;
      expect(report.outcomes.map((o) => o.outcome)).toEqual(["failed", "failed", "failed", "failed"]);
      expect(result.stderr).toContain("the repair failed to write");
    } finally {
      proxy.setPlan(() => "pass");
    }
  });
});
