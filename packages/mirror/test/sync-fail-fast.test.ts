import { readdir } from "node:fs/promises";
import { join } from "node:path";
import {
  type FaultProxy,
  type RunningRegistry,
  startFaultProxy,
  startHttpServer,
  startRegistry,
  type TempDir,
  type TestServer,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forgeRelease } from "./support/forge.js";
import { listTags, runSyncCli, type SyncJson, syncSpec, syncWorkspace } from "./support/sync-run.js";

const versions = ["1.0.0", "1.1.0", "1.2.0"];
const platforms = ["linux/amd64", "linux/arm64"];
const assetName = (version: string, platform: string) =>
  `hello-${version}-${platform.replace("/", "-")}.tar.gz`;
const failing = assetName("1.1.0", "linux/amd64");
const slowCount = versions.length * platforms.length - 1;

/** What the asset host saw of the slow downloads. */
interface SlowLog {
  started: number;
  /** Connections the client closed before the body's end. */
  cutOff: number;
  completed: number;
}

/**
 * A forge whose assets are all slow but one: a slow body declares 64 MiB and drips a KiB at a time
 * (never silent long enough for an idle timeout), so only the client closing it ends it. The
 * failing asset answers 404 once every slow body has started, so the first failure of the run
 * comes while all the others are in flight.
 */
async function startSlowForge(log: SlowLog): Promise<TestServer> {
  const releases: ReturnType<typeof forgeRelease>[] = [];
  let allStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    allStarted = resolve;
  });
  const server = await startHttpServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://forge").pathname;
    if (path === "/repos/acme/hello/releases") {
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(releases));
    }
    if (path === `/files/${failing}`) {
      await started;
      return res.writeHead(404).end("gone\n");
    }
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": 64 << 20 });
    res.write(Buffer.alloc(64 << 10));
    const drip = setInterval(() => res.write(Buffer.alloc(1024)), 20);
    res.on("close", () => {
      clearInterval(drip);
      if (res.writableFinished) log.completed++;
      else log.cutOff++;
    });
    if (++log.started === slowCount) allStarted();
  });
  for (const version of versions) {
    const assets = platforms.map((p) => {
      const name = assetName(version, p);
      return { name, url: `${server.url}/files/${name}` };
    });
    releases.unshift(forgeRelease(`v${version}`, assets));
  }
  return server;
}

async function partialFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => []);
  return names.filter((name) => name.endsWith(".partial"));
}

let work: TempDir;
let registry: RunningRegistry;
let proxy: FaultProxy;
let forge: TestServer;
const slow: SlowLog = { started: 0, cutOff: 0, completed: 0 };

beforeAll(async () => {
  work = await syncWorkspace("pkg-mirror-fail-fast-");
  registry = await startRegistry();
  proxy = await startFaultProxy(registry.url);
  forge = await startSlowForge(slow);
}, 60_000);

afterAll(async () => {
  await forge?.stop();
  await proxy?.stop();
  await registry?.stop();
  await work?.remove();
});

describe("pkg-mirror package sync --fail-fast", () => {
  it("stops the run at the first failure: downloads in flight are cut off, nothing is pushed", async () => {
    const spec = syncSpec(proxy.host, "acme/stop", {
      assets: Object.fromEntries(platforms.map((p) => [p, [`-${p.replace("/", "-")}\\.tar\\.gz$`]])),
      asset_type: { type: "archive", strip_components: 1 },
      concurrency: { max_downloads: 8 },
    });
    const result = await runSyncCli(work.path, "stop.yml", spec, forge, [
      "--fail-fast",
      "--format",
      "json",
      "--work-dir",
      "wd",
    ]);
    expect(result.code, result.stderr).toBe(1);
    const report = JSON.parse(result.stdout) as SyncJson;
    expect(report.counts).toMatchObject({ published: 0, failed: 1, skipped: slowCount });
    const pairs = report.versions.flatMap((v) => v.platforms.map((p) => ({ version: v.version, ...p })));
    const failed = pairs.filter((p) => p.status === "failed");
    expect(failed).toMatchObject([{ version: "1.1.0", platform: "linux/amd64", error: { exit_code: 69 } }]);
    expect(failed[0]?.error?.message).toContain("HTTP 404");
    for (const pair of pairs.filter((p) => p.status === "skipped"))
      expect(pair.reason).toBe("not pushed: --fail-fast stopped the run");

    // every slow body was closed by the client before its end, none taken as a download
    await expect.poll(() => slow.cutOff, { timeout: 30_000 }).toBe(slowCount);
    expect(slow).toEqual({ started: slowCount, cutOff: slowCount, completed: 0 });
    expect(await partialFiles(join(work.path, "wd"))).toEqual([]);
    expect(result.stderr).not.toContain("cancelled");

    // the registry was only read (the published state), never written
    const writes = proxy.requests.filter((r) => r.method !== "GET" && r.method !== "HEAD");
    expect(writes).toEqual([]);
    expect(await listTags(registry.url, "acme/stop")).toEqual([]);
  });
});
