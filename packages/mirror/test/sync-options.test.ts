import { access } from "node:fs/promises";
import { join } from "node:path";
import type { TestServer } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArchiveKind } from "./support/archive-kinds.js";
import {
  helloAssetKeys,
  helloAssetName,
  helloReleases,
  type PlatformKinds,
} from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import {
  listTags,
  runSyncCli,
  startUpstream,
  syncReport,
  syncSpec,
  type UpstreamRelease,
} from "./support/sync-run.js";

const versions = ["1.0.0", "1.1.0", "1.2.0"];
const kinds: PlatformKinds = { "linux/amd64": "tar.gz", "linux/arm64": "zip" };
const assetName = (version: string, platform: string) =>
  helloAssetName(version, platform, kinds[platform] as ArchiveKind);

/** The good upstream's releases, kept for the broken one. */
let releases: UpstreamRelease[] = [];
const env = useSyncEnv("pkg-mirror-options-", {
  forge: async (work) => {
    releases = await helloReleases(join(work.path, "scratch"), versions, kinds);
    return startUpstream("acme/hello", releases);
  },
});

/** The same upstream, but 1.0.0's linux/amd64 asset is not an archive at all. */
let broken: TestServer;
beforeAll(async () => {
  const notArchive = Buffer.from("this is no archive\n");
  const corrupt = releases.map((release) =>
    release.version === "1.0.0"
      ? { ...release, assets: new Map([...release.assets, [assetName("1.0.0", "linux/amd64"), notArchive]]) }
      : release,
  );
  broken = await startUpstream("acme/hello", corrupt);
});
afterAll(async () => {
  await broken?.stop();
});

const spec = (repository: string) =>
  syncSpec(env.registry.host, repository, {
    ...helloAssetKeys(kinds),
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
    const before = assetRequests(env.forge);
    const text = await runSyncCli(env.work.path, "dry.yml", spec("acme/dry"), env.forge, [
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

    const { report } = await syncReport(env.work.path, "dry.yml", spec("acme/dry"), env.forge, [
      "--dry-run",
      "--work-dir",
      "dry-wd",
    ]);
    expect(report.dry_run).toBe(true);
    expect(report.counts).toEqual({ published: 0, retagged: 0, skipped: 0, failed: 0, planned: 6 });
    expect(report.versions.map((v) => v.version)).toEqual(versions);
    for (const v of report.versions) {
      expect(v.primary_tag).toBeUndefined();
      expect(v.cascade_tags_written).toEqual([]);
      expect(v.platforms.map((p) => [p.platform, p.status, p.reason])).toEqual(
        Object.keys(kinds).map((p) => [p, "planned", `asset ${assetName(v.version, p)}`]),
      );
    }

    expect(assetRequests(env.forge)).toBe(before);
    expect(await listTags(env.registry.url, "acme/dry")).toEqual([]);
    expect(await exists(join(env.work.path, "dry-wd"))).toBe(false);
  });

  it("--format json reports per version and per platform, with the rolling tags each push wrote", async () => {
    const { report } = await syncReport(env.work.path, "json.yml", spec("acme/json"), env.forge, [
      "--work-dir",
      "json-wd",
    ]);
    expect(report).toMatchObject({
      name: "hello",
      target: `${env.registry.host}/acme/json`,
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
    const fast = await syncReport(
      env.work.path,
      "fast.yml",
      spec("acme/fast"),
      broken,
      ["--fail-fast", "--work-dir", "fast-wd"],
      1,
    );
    expect(fast.stderr).toContain(`1.0.0 linux/amd64: ${assetName("1.0.0", "linux/amd64")}: `);
    const stopped = fast.report;
    expect(stopped.counts).toMatchObject({ published: 0, failed: 1, skipped: 5 });
    const pairs = stopped.versions.flatMap((v) => v.platforms.map((p) => ({ version: v.version, ...p })));
    expect(pairs.find((p) => p.status === "failed")).toMatchObject({
      version: "1.0.0",
      platform: "linux/amd64",
    });
    for (const pair of pairs.filter((p) => p.status === "skipped")) {
      expect(pair.reason).toBe("not pushed: --fail-fast stopped the run");
    }
    expect(await listTags(env.registry.url, "acme/fast")).toEqual([]);

    const slow = await syncReport(
      env.work.path,
      "slow.yml",
      spec("acme/slow"),
      broken,
      ["--work-dir", "slow-wd"],
      1,
    );
    expect(slow.report.counts).toMatchObject({
      published: 5,
      failed: 1,
      skipped: 0,
    });
    expect(await listTags(env.registry.url, "acme/slow")).toContain("latest");
  });
});
