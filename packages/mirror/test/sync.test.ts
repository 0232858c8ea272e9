import { spawn } from "node:child_process";
import { access, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { openLayout, openRegistry } from "@pkg/oci";
import {
  type RunningRegistry,
  runCli,
  runCommand,
  startRegistry,
  type TempDir,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type ForgeOptions, startForge } from "./support/forge.js";
import { type SampleKind, sampleAssetName, sampleUpstream } from "./support/sample-upstream.js";
import {
  buildTimeOf,
  mirrorBin,
  pkgBin,
  runSyncCli,
  type SyncJson,
  tagDigestsOf,
} from "./support/sync-run.js";

const layout: Array<{ version: string; assets: Record<string, SampleKind> }> = [
  { version: "1.0.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
  { version: "1.1.0", assets: { "linux/amd64": "zip", "linux/arm64": "binary.gz" } },
  { version: "1.2.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
];

let work: TempDir;
let registry: RunningRegistry;
const forges: Record<"good" | "bad" | "held", { server: TestServer; options: ForgeOptions } | undefined> = {
  good: undefined,
  bad: undefined,
  held: undefined,
};
/** Holds the downloads of 1.2.0 from the `held` forge until released. */
let releaseHeld: () => void = () => {};
const held = new Promise<void>((resolve) => {
  releaseHeld = resolve;
});

async function startSample(repo: string, wrongDigest?: string, beforeFile?: ForgeOptions["beforeFile"]) {
  const options: ForgeOptions = {
    repo,
    releases: [],
    files: new Map(),
    ...(beforeFile ? { beforeFile } : {}),
  };
  const server = await startForge(options);
  const upstream = await sampleUpstream(
    join(work.path, "scratch", server.host.replace(":", "-")),
    server.url,
    layout,
    wrongDigest,
  );
  options.releases.push(...upstream.releases);
  for (const [name, bytes] of upstream.files) options.files?.set(name, bytes);
  return { server, options };
}

beforeAll(async () => {
  work = await tempDir("pkg-mirror-sync-");
  await mkdir(join(work.path, ".git"));
  await writeFile(
    join(work.path, "hello.json"),
    JSON.stringify({
      type: "bundle",
      version: 1,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata's own placeholder, not a template
      env: [{ key: "PATH", type: "path", value: "${installPath}", required: true }],
      binaries: ["hello"],
    }),
  );
  registry = await startRegistry();
  forges.good = await startSample("acme/hello");
  forges.bad = await startSample("acme/bad", sampleAssetName("1.1.0", "linux/arm64", "binary.gz"));
  forges.held = await startSample("acme/hello", undefined, (name) =>
    name.includes("-1.2.0-") ? held : Promise.resolve(),
  );
}, 60_000);

afterAll(async () => {
  await forges.good?.server.stop();
  await forges.bad?.server.stop();
  releaseHeld();
  await forges.held?.server.stop();
  await registry?.stop();
  await work?.remove();
});

function spec(repository: string, owner = "acme", repo = "hello"): string {
  return stringify({
    name: "hello",
    target: { registry: registry.host, repository },
    source: { type: "forgeone_release", owner, repo },
    assets: {
      "linux/amd64": ["^hello-.*-linux-amd64\\.(tar\\.gz|zip)$"],
      "linux/arm64": ["^hello-.*-linux-arm64(\\.gz)?$"],
    },
    asset_type: {
      default: { type: "archive", strip_components: 1 },
      platforms: { "linux/arm64": { type: "binary", name: "hello" } },
    },
    metadata: { default: "hello.json" },
    platforms: { "linux/amd64": { runner: "ubuntu-24.04" }, "linux/arm64": { runner: "ubuntu-24.04-arm" } },
  });
}

function sync(file: string, yaml: string, forge: TestServer, args: string[] = []) {
  return runSyncCli(work.path, file, yaml, forge, ["--format", "json", ...args]);
}

const assetRequests = (server: TestServer) =>
  server.requests.filter((r) => r.url.startsWith("/files/")).length;

const fullTags = (ts: string) => [
  "1",
  "1.0",
  "1.0.0",
  `1.0.0_${ts}`,
  "1.1",
  "1.1.0",
  `1.1.0_${ts}`,
  "1.2",
  "1.2.0",
  `1.2.0_${ts}`,
  "latest",
];

describe("pkg-mirror package sync", () => {
  it("publishes every pair with its primary, exact and rolling tags, and a re-run is a no-op", async () => {
    const good = forges.good?.server as TestServer;
    const first = await sync("hello.yml", spec("acme/hello"), good);
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as SyncJson;
    expect(report.versions.map((v) => v.version)).toEqual(["1.0.0", "1.1.0", "1.2.0"]);
    expect(report.counts).toMatchObject({ published: 6, failed: 0 });
    const ts = buildTimeOf(report);
    expect(ts).toMatch(/^\d{14}$/);
    expect(report.versions[2]?.cascade_tags_written.sort()).toEqual(["1", "1.2", "1.2.0", "latest"]);
    expect(report.versions[0]?.layer_reuse).toEqual({ mounted: 0, uploaded: 0, verified: 0 });
    // piped: one line per pair and per version pushed, none per step
    expect(first.stderr).toMatch(/^done 1\.1\.0 linux\/amd64 in \d+\.\d s \(bundled\)$/m);
    expect(first.stderr).toMatch(/^done push 1\.2\.0 in \d+\.\d s \(1\.2\.0_\d{14} .*latest\)$/m);
    expect(first.stderr).not.toContain("unpacking");

    const target = openRegistry({ host: registry.host, repository: "acme/hello" }, { env: {} });
    const tags = await tagDigestsOf(target);
    expect(Object.keys(tags)).toEqual(fullTags(ts).sort());
    expect(tags.latest).toBe(tags["1.2.0"]);
    expect(tags["1.0"]).toBe(tags["1.0.0"]);
    expect(new Set(Object.values(tags)).size).toBe(3);
    expect(tags["1"]).toBe(tags["1.2.0"]);
    expect(tags["1.1"]).toBe(tags["1.1.0"]);
    // a pushed pair's work directory is gone
    expect(await readdir(join(work.path, ".pkg-mirror", "hello"))).toEqual([]);

    const requestsBefore = assetRequests(good);
    const again = await sync("hello.yml", spec("acme/hello"), good);
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout) as SyncJson;
    expect(second.counts).toMatchObject({ published: 0, skipped: 6, failed: 0 });
    expect(assetRequests(good)).toBe(requestsBefore);
    expect(await tagDigestsOf(target)).toEqual(tags);

    for (const platform of ["linux/amd64", "linux/arm64"]) {
      const out = join(work.path, `pulled-${platform.replace("/", "-")}`);
      const pulled = await runCli(
        pkgBin,
        ["package", "pull", `${registry.host}/acme/hello:1.1.0`, "--platform", platform, "-o", out],
        { cwd: work.path },
      );
      expect(pulled.code, pulled.stderr).toBe(0);
      const ran = await runCommand(join(out, "content", "hello"), []);
      expect(ran.stdout).toBe(`hello 1.1.0 ${platform}\n`);
    }
  });

  it("fails only the pair whose digest does not match: exit 1, the others published, its version without rolling tags", async () => {
    const bad = forges.bad?.server as TestServer;
    const result = await sync("bad.yml", spec("acme/bad", "acme", "bad"), bad, ["--work-dir", "bad-work"]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `asset ${sampleAssetName("1.1.0", "linux/arm64", "binary.gz")}: digest mismatch: expected sha256:`,
    );
    const report = JSON.parse(result.stdout) as SyncJson;
    expect(report.counts).toMatchObject({ published: 5, failed: 1 });
    const v110 = report.versions.find((v) => v.version === "1.1.0");
    expect(v110?.cascade_tags_written).toEqual([]);
    expect(v110?.platforms.find((p) => p.platform === "linux/arm64")?.status).toBe("failed");
    const ts = buildTimeOf(report);
    const tags = await tagDigestsOf(
      openRegistry({ host: registry.host, repository: "acme/bad" }, { env: {} }),
    );
    expect(Object.keys(tags)).toEqual(
      ["1", "1.0", "1.0.0", `1.0.0_${ts}`, `1.1.0_${ts}`, "1.2", "1.2.0", `1.2.0_${ts}`, "latest"].sort(),
    );
    expect(tags["1"]).toBe(tags["1.2.0"]);
  });

  it("publishes into an OCI image layout with --layout", async () => {
    const good = forges.good?.server as TestServer;
    const result = await sync("hello.yml", spec("acme/hello"), good, [
      "--layout",
      "out/layout",
      "--work-dir",
      "layout-work",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const ts = buildTimeOf(JSON.parse(result.stdout) as SyncJson);
    const tags = await tagDigestsOf(openLayout(join(work.path, "out/layout"), "acme/hello"));
    expect(Object.keys(tags)).toEqual(fullTags(ts).sort());
    await expect(access(join(work.path, "out/layout/acme/hello/index.json"))).resolves.toBeUndefined();
  });

  it("completes after kill -9 in the middle of a run, with the tags of an uninterrupted run", async () => {
    const server = forges.held?.server as TestServer;
    const reference = await sync("hello.yml", spec("acme/reference"), forges.good?.server as TestServer, [
      "--work-dir",
      "reference-work",
    ]);
    expect(reference.code, reference.stderr).toBe(0);

    await writeFile(join(work.path, "killed.yml"), spec("acme/killed"));
    const child = spawn(
      process.execPath,
      [mirrorBin, "package", "sync", "killed.yml", "--work-dir", "killed-work"],
      { cwd: work.path, env: { ...process.env, PKG_FORGEONE_API_URL: server.url }, stdio: "ignore" },
    );
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (_code, signal) => resolve(signal)),
    );
    const hasBundle = async () =>
      (await readdir(join(work.path, "killed-work"), { recursive: true }).catch(() => [])).some((f) =>
        f.endsWith("bundle.tar.zst"),
      );
    while (!(await hasBundle())) await delay(20);
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    releaseHeld();

    const rerun = await sync("killed.yml", spec("acme/killed"), server, ["--work-dir", "killed-work"]);
    expect(rerun.code, rerun.stderr).toBe(0);
    const withoutTimestamp = (tags: Record<string, string>) =>
      Object.keys(tags)
        .map((tag) => tag.replace(/_\d{14}$/, "_T"))
        .sort();
    const killed = await tagDigestsOf(
      openRegistry({ host: registry.host, repository: "acme/killed" }, { env: {} }),
    );
    const uninterrupted = await tagDigestsOf(
      openRegistry({ host: registry.host, repository: "acme/reference" }, { env: {} }),
    );
    expect(withoutTimestamp(killed)).toEqual(withoutTimestamp(uninterrupted));
    expect(await readdir(join(work.path, "killed-work", "hello"))).toEqual([]);
  });
});
