// A version's publication is whole or it is outstanding work: a version completed by a later run
// gets rolling tags holding all its platforms, and a run killed or interrupted while tagging is
// finished by the next one without uploading anything.
import { type ChildProcess, spawn } from "node:child_process";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { openRegistry, sha256Digest, type Target } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import { type FaultPlan, runCli } from "@pkg/testkit";
import { describe, expect, it } from "vitest";
import {
  helloAssetKeys,
  helloAssetName,
  helloForge,
  runnersFor,
  sameKind,
} from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import {
  buildTimeOf,
  mirrorBin,
  pullAndRun,
  syncReport,
  syncSpec,
  tagDigestsOf,
} from "./support/sync-run.js";

const versions = ["1.0.0", "1.1.0", "1.2.0"];
const platforms = ["linux/amd64", "linux/arm64"];
const kinds = sameKind(platforms, "tar.gz");

const passAll: FaultPlan = () => "pass";

const env = useSyncEnv("pkg-mirror-completion-", { proxy: true, forge: helloForge(versions, kinds) });

const spec = (host: string, repository: string) =>
  syncSpec(host, repository, { ...helloAssetKeys(kinds), platforms: runnersFor(platforms) });

const target = (repository: string): Target =>
  openRegistry({ host: env.registry.host, repository }, { env: {} });

/** Platform key -> manifest digest of the index behind `tag`. */
async function entriesOf(repository: string, tag: string): Promise<Record<string, string>> {
  const stored = await target(repository).fetchManifest(tag);
  const index = JSON.parse(stored?.bytes.toString("utf8") ?? "{}") as {
    manifests?: Array<{ digest: string; platform: { os: string; architecture: string } }>;
  };
  return Object.fromEntries(
    (index.manifests ?? []).map((m) => [`${m.platform.os}/${m.platform.architecture}`, m.digest]),
  );
}

/** Declares a wrong digest for one asset of the forge's listing; returns the undo. */
function corruptDigest(version: string, platform: string): () => void {
  const name = helloAssetName(version, platform, "tar.gz");
  const asset = env.forge.releases.flatMap((r) => r.assets).find((a) => a.name === name);
  if (!asset) throw new Error(`no asset ${name}`);
  const right = asset.digest;
  asset.digest = sha256Digest("not these bytes");
  return () => {
    asset.digest = right;
  };
}

async function check(file: string): Promise<Record<string, Record<string, string>>> {
  const result = await runCli(mirrorBin, ["package", "check", file, "--format", "json"], {
    cwd: env.work.path,
    env: { PKG_FORGEONE_API_URL: env.forge.url },
  });
  expect(result.code, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout) as {
    rows: Array<{ version: string; cells: Record<string, { state: string }> }>;
  };
  return Object.fromEntries(
    report.rows.map((row) => [
      row.version,
      Object.fromEntries(Object.entries(row.cells).map(([k, c]) => [k, c.state])),
    ]),
  );
}

/** Starts `pkg-mirror package sync` on `file` in the background. */
async function startSync(
  file: string,
  yaml: string,
  workDir: string,
): Promise<{
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}> {
  await writeFile(join(env.work.path, file), yaml);
  const child = spawn(process.execPath, [mirrorBin, "package", "sync", file, "--work-dir", workDir], {
    cwd: env.work.path,
    env: { ...process.env, PKG_FORGEONE_API_URL: env.forge.url },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })),
  );
  return { child, exited };
}

/** Waits until the proxy has received a request matching `test`. */
async function requestArrives(test: (method: string, url: string) => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!env.proxy.requests.some((r) => test(r.method, r.url))) {
    if (Date.now() > deadline) throw new Error("the awaited request never came");
    await delay(10);
  }
}

const isTagPut = (repository: string, tag: string) => (method: string, url: string) =>
  method === "PUT" && url === `/v2/${repository}/manifests/${tag}`;

/** The digest an upload's closing PUT names. */
const uploadedDigest = (url: string) => new URL(url, "http://x").searchParams.get("digest") ?? url;

const withoutTimestamp = (tags: Record<string, string>) =>
  Object.keys(tags)
    .map((tag) => tag.replace(/_\d{14}$/, "_T"))
    .sort();

describe("pkg-mirror package sync completes what earlier runs left", () => {
  it("a version completed by a later run gets rolling tags holding every platform, the earlier ones included", async () => {
    const repository = "acme/completed";
    const yaml = spec(env.registry.host, repository);
    const restore = corruptDigest("1.2.0", "linux/arm64");
    const first = await syncReport(
      env.work.path,
      "completed.yml",
      yaml,
      env.forge,
      ["--work-dir", "completed-work"],
      1,
    );
    restore();
    const ts1 = buildTimeOf(first.report);
    expect(Object.keys(await tagDigestsOf(target(repository))).filter((t) => t.startsWith("1.2"))).toEqual([
      `1.2.0_${ts1}`,
    ]);
    expect(first.stderr).toContain(
      `1.2.0: linux/arm64 failed in this run; rolling tags withheld: linux/amd64 publishes under 1.2.0_${ts1} only`,
    );
    expect((await check("completed.yml"))["1.2.0"]).toEqual({
      "linux/amd64": "published",
      "linux/arm64": "missing",
    });
    const earlierAmd64 = (await entriesOf(repository, `1.2.0_${ts1}`))["linux/amd64"];

    const second = await syncReport(env.work.path, "completed.yml", yaml, env.forge, [
      "--work-dir",
      "completed-work",
    ]);
    const v120 = second.report.versions.find((v) => v.version === "1.2.0");
    expect(Object.fromEntries(v120?.platforms.map((p) => [p.platform, p.status]) ?? [])).toEqual({
      "linux/amd64": "retagged",
      "linux/arm64": "published",
    });
    expect(v120?.cascade_tags_written.sort()).toEqual(["1", "1.2", "1.2.0", "latest"]);
    for (const tag of ["1.2.0", "1.2", "1", "latest"]) {
      const entries = await entriesOf(repository, tag);
      expect(Object.keys(entries).sort(), tag).toEqual(platforms);
      // the platform pushed by the first run, not an older version's
      expect(entries["linux/amd64"], tag).toBe(earlierAmd64);
    }
    const out = join(env.work.path, "completed-pull");
    expect(
      await pullAndRun(env.work.path, `${env.registry.host}/${repository}:1.2`, "linux/amd64", out),
    ).toBe("hello 1.2.0 linux/amd64\n");
    const states = await check("completed.yml");
    expect(Object.values(states).flatMap((cells) => Object.values(cells))).toEqual(
      Array(6).fill("published"),
    );
  });

  it("a run killed while tagging leaves the version untagged; the next run completes it, uploading nothing", async () => {
    const reference = await syncReport(
      env.work.path,
      "reference.yml",
      spec(env.registry.host, "acme/reference"),
      env.forge,
      ["--work-dir", "reference-work"],
    );
    expect(reference.report.counts).toMatchObject({ published: 6, failed: 0 });

    const repository = "acme/killed-tagging";
    const yaml = spec(env.proxy.host, repository);
    // the first rolling tag of the newest version never reaches the registry: the run dies there
    env.proxy.setPlan((request) =>
      isTagPut(repository, "1.2")(request.method, request.url) ? "drop" : "pass",
    );
    const run = await startSync("killed-tagging.yml", yaml, "killed-tagging-work");
    await requestArrives(isTagPut(repository, "1.2"));
    run.child.kill("SIGKILL");
    expect((await run.exited).signal).toBe("SIGKILL");
    env.proxy.setPlan(passAll);

    const left = Object.keys(await tagDigestsOf(target(repository)));
    expect(left.filter((t) => t.startsWith("1.2"))).toHaveLength(1);
    expect((await check("killed-tagging.yml"))["1.2.0"]).toEqual({
      "linux/amd64": "untagged",
      "linux/arm64": "untagged",
    });

    const before = env.proxy.requests.length;
    const rerun = await syncReport(env.work.path, "killed-tagging.yml", yaml, env.forge, [
      "--work-dir",
      "killed-tagging-work",
    ]);
    // the only blobs uploaded are the published summary's (the killed run never wrote one)
    const uploaded = env.proxy.requests
      .slice(before)
      .flatMap((r) =>
        r.method === "PUT" && r.url.includes("/blobs/uploads/") ? [uploadedDigest(r.url)] : [],
      );
    const summary = JSON.parse(
      (await target(repository).fetchManifest(PUBLISHED_SUMMARY_TAG))?.bytes.toString("utf8") ?? "{}",
    ) as { config: { digest: string }; layers: Array<{ digest: string }> };
    const summaryBlobs = [summary.config.digest, ...summary.layers.map((l) => l.digest)];
    expect(uploaded.filter((digest) => !summaryBlobs.includes(digest))).toEqual([]);
    const v120 = rerun.report.versions.find((v) => v.version === "1.2.0");
    expect(v120?.platforms.map((p) => p.status)).toEqual(["retagged", "retagged"]);
    expect(rerun.report.counts).toMatchObject({ published: 0, retagged: 2, failed: 0 });

    const completed = await tagDigestsOf(target(repository));
    expect(withoutTimestamp(completed)).toEqual(
      withoutTimestamp(await tagDigestsOf(target("acme/reference"))),
    );
    for (const tag of ["1.2.0", "1.2", "1", "latest"]) {
      expect(Object.keys(await entriesOf(repository, tag)).sort(), tag).toEqual(platforms);
    }
    expect(Object.values(await check("killed-tagging.yml")).flatMap((c) => Object.values(c))).toEqual(
      Array(6).fill("published"),
    );
  });

  it("SIGINT while tagging finishes that version, exits 130 with one line, and removes partial files", async () => {
    const repository = "acme/interrupted";
    const yaml = spec(env.proxy.host, repository);
    const slowTag: FaultPlan = (request) =>
      isTagPut(repository, "1.1")(request.method, request.url) ? { delayMs: 1500 } : "pass";
    env.proxy.setPlan(slowTag);
    const run = await startSync("interrupted.yml", yaml, "interrupted-work");
    await requestArrives(isTagPut(repository, "1.1"));
    run.child.kill("SIGINT");
    const { code, stderr } = await run.exited;
    env.proxy.setPlan(passAll);
    expect(code, stderr).toBe(130);
    expect(stderr).toContain("SIGINT: stopping");
    const last = stderr.trimEnd().split("\n").at(-1);
    expect(last).toBe(
      "pkg-mirror: interrupted by SIGINT; published 1.0.0, 1.1.0; not published: 1.2.0 (what was downloaded and bundled stays in interrupted-work for the next run)",
    );
    // 1.1.0, being tagged when the signal came, has all its tags
    const tags = Object.keys(await tagDigestsOf(target(repository)));
    expect(
      tags
        .filter((t) => /^1\.1(\.0)?(_|$)/.test(t))
        .map((t) => t.replace(/_\d{14}$/, "_T"))
        .sort(),
    ).toEqual(["1.1", "1.1.0", "1.1.0_T"]);
    expect(tags.some((t) => t.startsWith("1.2"))).toBe(false);
    const files = await readdir(join(env.work.path, "interrupted-work"), { recursive: true });
    expect(files.filter((f) => f.endsWith(".partial") || f.includes(".tmp"))).toEqual([]);

    const rerun = await syncReport(env.work.path, "interrupted.yml", yaml, env.forge, [
      "--work-dir",
      "interrupted-work",
    ]);
    expect(rerun.report.counts).toMatchObject({ published: 2, failed: 0 });
    expect(Object.keys(await entriesOf(repository, "latest")).sort()).toEqual(platforms);
  });
});
