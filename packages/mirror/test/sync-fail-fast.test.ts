import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { startHttpServer, type TestServer } from "@pkg/testkit";
import { describe, expect, it } from "vitest";
import { forgeRelease } from "./support/forge.js";
import { helloAssetKeys, helloAssetName, sameKind } from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import { listTags, syncReport, syncSpec } from "./support/sync-run.js";

const versions = ["1.0.0", "1.1.0", "1.2.0"];
const platforms = ["linux/amd64", "linux/arm64"];
const assetName = (version: string, platform: string) => helloAssetName(version, platform, "tar.gz");
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

const slow: SlowLog = { started: 0, cutOff: 0, completed: 0 };
const env = useSyncEnv("pkg-mirror-fail-fast-", { proxy: true, forge: () => startSlowForge(slow) });

describe("pkg-mirror package sync --fail-fast", () => {
  it("stops the run at the first failure: downloads in flight are cut off, nothing is pushed", async () => {
    const spec = syncSpec(env.proxy.host, "acme/stop", {
      ...helloAssetKeys(sameKind(platforms, "tar.gz")),
      concurrency: { max_downloads: 8 },
    });
    const { report, stderr } = await syncReport(
      env.work.path,
      "stop.yml",
      spec,
      env.forge,
      ["--fail-fast", "--work-dir", "wd"],
      1,
    );
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
    expect(await partialFiles(join(env.work.path, "wd"))).toEqual([]);
    expect(stderr).not.toContain("cancelled");

    // the registry was only read (the published state), never written
    const writes = env.proxy.requests.filter((r) => r.method !== "GET" && r.method !== "HEAD");
    expect(writes).toEqual([]);
    expect(await listTags(env.registry.url, "acme/stop")).toEqual([]);
  });
});
