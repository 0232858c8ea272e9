import { join } from "node:path";
import {
  type FaultProxy,
  type RunningRegistry,
  randomFaults,
  startFaultProxy,
  startRegistry,
  type TempDir,
  type TestServer,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAsset } from "./support/archive-kinds.js";
import { helloScript } from "./support/sample-upstream.js";
import {
  buildTimeOf,
  expectEveryTagComplete,
  listTags,
  runSyncCli,
  type SyncJson,
  startUpstream,
  syncSpec,
  syncWorkspace,
} from "./support/sync-run.js";

const versions = ["1.0.0", "1.1.0"];
const platforms = ["linux/amd64", "linux/arm64"];

let work: TempDir;
let registry: RunningRegistry;
let proxy: FaultProxy;
let forge: TestServer;

beforeAll(async () => {
  work = await syncWorkspace("pkg-mirror-faults-");
  registry = await startRegistry();
  proxy = await startFaultProxy(registry.url);
  const releases = [];
  for (const version of versions) {
    const assets = new Map<string, Buffer>();
    for (const platform of platforms) {
      const dir = join(work.path, "scratch", version, platform.replace("/", "-"));
      const name = `hello-${version}-${platform.replace("/", "-")}.tar.gz`;
      assets.set(name, await buildAsset(dir, "tar.gz", helloScript(version, platform), ["hello"]));
    }
    releases.push({ version, assets });
  }
  forge = await startUpstream("acme/hello", releases);
}, 60_000);

afterAll(async () => {
  await forge?.stop();
  await proxy?.stop();
  await registry?.stop();
  await work?.remove();
});

describe("pkg-mirror package sync through a faulty registry", () => {
  it("completes with retries, and no tag points at a missing blob", async () => {
    // Faults start once planning has read the registry: the pushes meet drops, 5xx and 429s. Each
    // one costs a real backoff (1 s, then 2 s) in the CLI, hence so few.
    const faults = randomFaults({
      seed: 11,
      drop: 0.15,
      serverError: 0.15,
      tooManyRequests: 0.1,
      maxFaults: 2,
    });
    let pushing = false;
    proxy.setPlan((request, index) => {
      pushing ||= request.method !== "GET" && request.method !== "HEAD";
      return pushing ? faults(request, index) : "pass";
    });
    const yaml = syncSpec(proxy.host, "acme/faulty", {
      assets: Object.fromEntries(platforms.map((p) => [p, [`-${p.replace("/", "-")}\\.tar\\.gz$`]])),
      asset_type: { type: "archive", strip_components: 1 },
      platforms: Object.fromEntries(platforms.map((p) => [p, { runner: "ubuntu-24.04" }])),
    });
    const result = await runSyncCli(work.path, "faulty.yml", yaml, forge, ["--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as SyncJson;
    expect(report.counts).toMatchObject({ published: 4, failed: 0 });

    const injected = proxy.requests.filter((r) => r.status === undefined || r.status >= 429);
    expect(injected.length).toBeGreaterThan(0);
    expect(result.stderr).toMatch(/push attempt 2\/4: /);
    const attempts = report.versions.flatMap((v) => v.platforms.map((p) => p.attempts));
    expect(Math.max(...attempts)).toBeGreaterThan(1);

    const ts = buildTimeOf(report);
    expect(await listTags(registry.url, "acme/faulty")).toEqual(
      ["1", "1.0", "1.0.0", `1.0.0_${ts}`, "1.1", "1.1.0", `1.1.0_${ts}`, "latest"].sort(),
    );
    await expectEveryTagComplete(registry.url, "acme/faulty");
  });
});
