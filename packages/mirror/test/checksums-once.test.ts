import { createHash } from "node:crypto";
import { join } from "node:path";
import { startHttpServer, type TestServer } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helloAssetKeys, helloReleases, runnersFor, sameKind } from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import { startUpstream, syncReport, syncSpec, type UpstreamRelease } from "./support/sync-run.js";

// `verify.checksums_file` is one URL for the whole spec: a sync fetches it once, however many
// versions and platforms it builds, and a failure to fetch it is not asked again by every pair.

const versions = ["1.0.0", "1.1.0", "1.2.0"];
const platforms = ["linux/amd64", "linux/arm64", "darwin/arm64"];
const kinds = sameKind(platforms, "tar.gz");

let releases: UpstreamRelease[] = [];
const env = useSyncEnv("pkg-mirror-sums-", {
  forge: async (work) => {
    releases = await helloReleases(join(work.path, "scratch"), versions, kinds);
    return startUpstream("acme/hello", releases);
  },
});

/** Serves `/SHA256SUMS` listing every asset of every release; `/missing` is a 404. */
let sums: TestServer;
beforeAll(async () => {
  const text = releases
    .flatMap((r) => [...r.assets].map(([name, bytes]) => `${sha256hex(bytes)}  ${name}\n`))
    .join("");
  sums = await startHttpServer((req, res) => {
    if (req.url !== "/SHA256SUMS") return void res.writeHead(404).end();
    res.writeHead(200, { "content-length": Buffer.byteLength(text) }).end(text);
  });
});
afterAll(async () => {
  await sums?.stop();
});

const sha256hex = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const requestsFor = (path: string) => sums.requests.filter((r) => r.url === path).length;
const assetRequests = () => env.forge.requests.filter((r) => r.url.startsWith("/files/")).length;

const spec = (repository: string, checksumsPath: string) =>
  syncSpec(env.registry.host, repository, {
    ...helloAssetKeys(kinds),
    platforms: runnersFor(platforms),
    verify: { checksums_file: `${sums.url}${checksumsPath}` },
    concurrency: { max_downloads: 4 },
  });

describe("verify.checksums_file in a sync", () => {
  it("is fetched once for every version and platform of the run", async () => {
    const { report } = await syncReport(
      env.work.path,
      "sums.yml",
      spec("acme/sums", "/SHA256SUMS"),
      env.forge,
      ["--work-dir", "sums-wd"],
    );
    expect(report.counts).toMatchObject({ published: 9, failed: 0 });
    expect(requestsFor("/SHA256SUMS")).toBe(1);
  });

  it("that cannot be fetched is asked once, and every pair reports that same failure", async () => {
    const before = assetRequests();
    const { report } = await syncReport(
      env.work.path,
      "missing.yml",
      spec("acme/missing", "/missing"),
      env.forge,
      ["--work-dir", "missing-wd"],
      1,
    );
    expect(report.counts).toMatchObject({ published: 0, failed: 9 });
    const messages = report.versions.flatMap((v) => v.platforms.map((p) => p.error?.message));
    expect(messages).toHaveLength(9);
    expect(new Set(messages).size).toBe(1);
    expect(messages[0]).toMatch(/^checksums file http:\/\/127\.0\.0\.1:[0-9]+\/missing answered HTTP 404/);
    expect(requestsFor("/missing")).toBe(1);
    expect(assetRequests()).toBe(before);
  });
});
