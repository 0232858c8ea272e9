import { join } from "node:path";
import { openRegistry, type Target } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import {
  type FaultProxy,
  type RunningRegistry,
  runCli,
  startFaultProxy,
  startRegistry,
  type TempDir,
  type TestServer,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckReport } from "../src/pipeline/check.js";
import { readPublishedSummary } from "../src/plan/read-summary.js";
import type { SummaryTags } from "../src/plan/summary-document.js";
import { buildAsset } from "./support/archive-kinds.js";
import { helloScript } from "./support/sample-upstream.js";
import {
  buildTimeOf,
  mirrorBin,
  runSyncCli,
  type SyncJson,
  startUpstream,
  syncSpec,
  syncWorkspace,
} from "./support/sync-run.js";

const PLATFORM = "linux/amd64";

let work: TempDir;
let registry: RunningRegistry;
let proxy: FaultProxy;
let forge: TestServer;

beforeAll(async () => {
  work = await syncWorkspace("pkg-mirror-sync-summary-");
  registry = await startRegistry();
  proxy = await startFaultProxy(registry.url);
  const releases = [];
  for (const version of ["1.0.0", "1.1.0"]) {
    const name = `hello-${version}-linux-amd64.tar.gz`;
    const dir = join(work.path, "scratch", version);
    const asset = await buildAsset(dir, "tar.gz", helloScript(version, PLATFORM), ["hello"]);
    releases.push({ version, assets: new Map([[name, asset]]) });
  }
  forge = await startUpstream("acme/hello", releases);
}, 60_000);

afterAll(async () => {
  await forge?.stop();
  await proxy?.stop();
  await registry?.stop();
  await work?.remove();
});

function spec(repository: string): string {
  return syncSpec(proxy.host, repository, {
    assets: { [PLATFORM]: ["-linux-amd64\\.tar\\.gz$"] },
    asset_type: { type: "archive", strip_components: 1 },
    platforms: { [PLATFORM]: { runner: "ubuntu-24.04" } },
  });
}

async function sync(repository: string, args: string[]): Promise<SyncJson> {
  const result = await runSyncCli(work.path, `${repository.replace("/", "-")}.yml`, spec(repository), forge, [
    "--format",
    "json",
    "--work-dir",
    `work-${repository.replace("/", "-")}`,
    ...args,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return { ...(JSON.parse(result.stdout) as SyncJson), stderr: result.stderr } as SyncJson & {
    stderr: string;
  };
}

/** `package check --format json` of the spec `sync` wrote, with the manifests it requested. */
async function check(repository: string, args: string[] = []) {
  const mark = proxy.requests.length;
  const result = await runCli(
    mirrorBin,
    ["package", "check", `${repository.replace("/", "-")}.yml`, "--format", "json", ...args],
    { cwd: work.path, env: { PKG_FORGEONE_API_URL: forge.url } },
  );
  expect(result.code, result.stderr).toBe(0);
  const manifests = proxy.requests
    .slice(mark)
    .flatMap((r) => (r.url.includes("/manifests/") ? [r.url.slice(r.url.lastIndexOf("/") + 1)] : []));
  return { report: JSON.parse(result.stdout) as CheckReport, manifests };
}

function direct(repository: string): Target {
  return openRegistry({ host: registry.host, repository }, { env: {} });
}

async function summaryOf(repository: string): Promise<SummaryTags> {
  const read = await readPublishedSummary(direct(repository));
  expect(read.status).toBe("valid");
  return read.status === "valid" ? read.tags : new Map();
}

/** Every summary entry names the digest its tag really has, and that index's platforms. */
async function expectTruthful(repository: string, tags: SummaryTags): Promise<void> {
  for (const [tag, record] of tags) {
    const stored = await direct(repository).fetchManifest(tag);
    expect(stored?.descriptor.digest, tag).toBe(record.digest);
    expect(record.platforms, tag).toEqual([PLATFORM]);
  }
}

describe("pkg-mirror package sync and the published summary", () => {
  it("writes the summary, updates it on the next run, and check then reads no index per version", async () => {
    const repo = "acme/summary";
    const first = await sync(repo, ["--version", "1.0.0"]);
    const ts1 = buildTimeOf(first);
    const afterFirst = await summaryOf(repo);
    expect([...afterFirst.keys()].sort()).toEqual(["1", "1.0", "1.0.0", `1.0.0_${ts1}`]);
    await expectTruthful(repo, afterFirst);

    const second = await sync(repo, []);
    expect(second.counts).toMatchObject({ published: 1, failed: 0 });
    const ts2 = buildTimeOf(second);
    const afterSecond = await summaryOf(repo);
    expect([...afterSecond.keys()].sort()).toEqual(
      ["1", "1.0", "1.0.0", `1.0.0_${ts1}`, "1.1", "1.1.0", `1.1.0_${ts2}`].sort(),
    );
    await expectTruthful(repo, afterSecond);
    // `1` moved to 1.1.0, and the summary followed it
    expect(afterSecond.get("1")?.digest).toBe(afterSecond.get("1.1.0")?.digest);

    const { report, manifests } = await check(repo);
    expect(report.rows.map((r) => [r.version, r.cells[PLATFORM]?.state])).toEqual([
      ["1.1.0", "published"],
      ["1.0.0", "published"],
    ]);
    expect(report.published_reads).toEqual({ tags: 9, summary: "used", summary_hits: 2, index_reads: 0 });
    expect(manifests).toEqual([PUBLISHED_SUMMARY_TAG]);

    const verified = await check(repo, ["--verify-published"]);
    expect(verified.report.rows).toEqual(report.rows);
    expect(verified.report.published_reads).toMatchObject({
      summary: "ignored",
      summary_hits: 0,
      index_reads: 2,
    });
    expect(verified.manifests.sort()).toEqual(["1.0.0", "1.1.0"]);
  });

  it("does not fail when the summary cannot be written: a warning, and check reads the indexes", async () => {
    const repo = "acme/nosummary";
    proxy.setPlan((request) =>
      request.method === "PUT" && request.url.endsWith(`/manifests/${PUBLISHED_SUMMARY_TAG}`)
        ? { status: 500, body: '{"errors":[{"code":"UNKNOWN","message":"disk full"}]}' }
        : "pass",
    );
    try {
      const report = (await sync(repo, [])) as SyncJson & { stderr: string };
      expect(report.counts).toMatchObject({ published: 2, failed: 0 });
      expect(report.stderr).toMatch(/warning: .*acme\/nosummary: the published summary was not updated/);
    } finally {
      proxy.setPlan(() => "pass");
    }
    expect(await direct(repo).listTags()).not.toContain(PUBLISHED_SUMMARY_TAG);
    const { report } = await check(repo);
    expect(report.published_reads).toMatchObject({ summary: "absent", summary_hits: 0, index_reads: 2 });
    expect(report.rows.map((r) => r.cells[PLATFORM]?.state)).toEqual(["published", "published"]);
  });
});
