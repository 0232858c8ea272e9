import { access } from "node:fs/promises";
import { join } from "node:path";
import { type RunningRegistry, startRegistry, type TempDir, type TestServer } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ArchiveKind, buildAsset } from "./support/archive-kinds.js";
import { helloScript } from "./support/sample-upstream.js";
import {
  listTags,
  runSyncCli,
  type SyncJson,
  startUpstream,
  syncSpec,
  syncWorkspace,
  type UpstreamRelease,
} from "./support/sync-run.js";

const versions = ["1.0.0", "1.1.0", "1.2.0"];
const kinds: Record<string, ArchiveKind> = { "linux/amd64": "tar.gz", "linux/arm64": "zip" };
const assetName = (version: string, platform: string) =>
  `hello-${version}-${platform.replace("/", "-")}.${kinds[platform]}`;

let work: TempDir;
let registry: RunningRegistry;
let good: TestServer;
/** The same upstream, but 1.0.0's linux/amd64 asset is not an archive at all. */
let broken: TestServer;

async function releases(corrupt: boolean): Promise<UpstreamRelease[]> {
  return Promise.all(
    versions.map(async (version) => {
      const assets = new Map<string, Buffer>();
      for (const platform of Object.keys(kinds)) {
        const dir = join(work.path, "scratch", String(corrupt), version, platform.replace("/", "-"));
        const kind = kinds[platform] as ArchiveKind;
        const bytes =
          corrupt && version === "1.0.0" && platform === "linux/amd64"
            ? Buffer.from("this is no archive\n")
            : await buildAsset(dir, kind, helloScript(version, platform), ["hello"]);
        assets.set(assetName(version, platform), bytes);
      }
      return { version, assets };
    }),
  );
}

beforeAll(async () => {
  work = await syncWorkspace("pkg-mirror-options-");
  registry = await startRegistry();
  good = await startUpstream("acme/hello", await releases(false));
  broken = await startUpstream("acme/hello", await releases(true));
}, 60_000);

afterAll(async () => {
  await good?.stop();
  await broken?.stop();
  await registry?.stop();
  await work?.remove();
});

const spec = (repository: string) =>
  syncSpec(registry.host, repository, {
    assets: {
      "linux/amd64": ["-linux-amd64\\.tar\\.gz$"],
      "linux/arm64": ["-linux-arm64\\.zip$"],
    },
    asset_type: { type: "archive", strip_components: 1 },
    platforms: { "linux/amd64": { runner: "ubuntu-24.04" }, "linux/arm64": { runner: "ubuntu-24.04-arm" } },
  });

const assetRequests = (server: TestServer) =>
  server.requests.filter((r) => r.url.startsWith("/files/")).length;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("pkg-mirror package sync options", () => {
  it("--dry-run prints the plan, downloads nothing and pushes nothing", async () => {
    const before = assetRequests(good);
    const text = await runSyncCli(work.path, "dry.yml", spec("acme/dry"), good, [
      "--dry-run",
      "--work-dir",
      "dry-wd",
    ]);
    expect(text.code, text.stderr).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^version\s+platform\s+status\s+detail$/);
    for (const version of versions) {
      for (const platform of Object.keys(kinds)) {
        expect(lines).toContainEqual(
          expect.stringMatching(
            new RegExp(`^${version}\\s+${platform}\\s+planned\\s+asset ${assetName(version, platform)}$`),
          ),
        );
      }
    }
    expect(lines.at(-1)).toBe("6 planned, 0 skipped, 0 failed");

    const json = await runSyncCli(work.path, "dry.yml", spec("acme/dry"), good, [
      "--dry-run",
      "--format",
      "json",
      "--work-dir",
      "dry-wd",
    ]);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as SyncJson;
    expect(report.dry_run).toBe(true);
    expect(report.counts).toEqual({ published: 0, skipped: 0, failed: 0, planned: 6 });
    expect(report.versions.map((v) => v.version)).toEqual(versions);
    for (const v of report.versions) {
      expect(v.primary_tag).toBeUndefined();
      expect(v.cascade_tags_written).toEqual([]);
      expect(v.platforms.map((p) => [p.platform, p.status, p.reason])).toEqual(
        Object.keys(kinds).map((p) => [p, "planned", `asset ${assetName(v.version, p)}`]),
      );
    }

    expect(assetRequests(good)).toBe(before);
    expect(await listTags(registry.url, "acme/dry")).toEqual([]);
    expect(await exists(join(work.path, "dry-wd"))).toBe(false);
  });

  it("--format json reports per version and per platform, with the rolling tags each push wrote", async () => {
    const result = await runSyncCli(work.path, "json.yml", spec("acme/json"), good, [
      "--format",
      "json",
      "--work-dir",
      "json-wd",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as SyncJson;
    expect(report).toMatchObject({
      name: "hello",
      target: `${registry.host}/acme/json`,
      dry_run: false,
      counts: { published: 6, skipped: 0, failed: 0, planned: 0 },
    });
    const ts = report.versions[0]?.primary_tag?.split("_")[1] ?? "";
    expect(ts).toMatch(/^\d{14}$/);
    for (const [i, v] of report.versions.entries()) {
      const version = versions[i] as string;
      const [major, minor] = version.split(".");
      expect(v).toEqual({
        version,
        primary_tag: `${version}_${ts}`,
        cascade_tags_written: [version, `${major}.${minor}`, `${major}`, "latest"],
        layer_reuse: { mounted: 0, uploaded: 0, verified: 0 },
        platforms: Object.keys(kinds).map((platform) => ({
          platform,
          status: "published",
          tags_written: [`${version}_${ts}`, version, `${major}.${minor}`, `${major}`, "latest"],
          blobs: expect.objectContaining({ uploaded: expect.any(Number) }),
          attempts: 1,
          reused_download: false,
          reused_bundle: false,
        })),
      });
    }
  });

  it("--fail-fast pushes nothing after the first failed pair; without it the other pairs publish", async () => {
    const fast = await runSyncCli(work.path, "fast.yml", spec("acme/fast"), broken, [
      "--fail-fast",
      "--format",
      "json",
      "--work-dir",
      "fast-wd",
    ]);
    expect(fast.code, fast.stderr).toBe(1);
    expect(fast.stderr).toContain(`1.0.0 linux/amd64: ${assetName("1.0.0", "linux/amd64")}: `);
    const stopped = JSON.parse(fast.stdout) as SyncJson;
    expect(stopped.counts).toMatchObject({ published: 0, failed: 1, skipped: 5 });
    const pairs = stopped.versions.flatMap((v) => v.platforms.map((p) => ({ version: v.version, ...p })));
    expect(pairs.find((p) => p.status === "failed")).toMatchObject({
      version: "1.0.0",
      platform: "linux/amd64",
    });
    for (const pair of pairs.filter((p) => p.status === "skipped")) {
      expect(pair.reason).toBe("not pushed: --fail-fast stopped the run");
    }
    expect(await listTags(registry.url, "acme/fast")).toEqual([]);

    const slow = await runSyncCli(work.path, "slow.yml", spec("acme/slow"), broken, [
      "--format",
      "json",
      "--work-dir",
      "slow-wd",
    ]);
    expect(slow.code, slow.stderr).toBe(1);
    expect((JSON.parse(slow.stdout) as SyncJson).counts).toMatchObject({
      published: 5,
      failed: 1,
      skipped: 0,
    });
    expect(await listTags(registry.url, "acme/slow")).toContain("latest");
  });
});
