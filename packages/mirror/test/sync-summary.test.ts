import { openRegistry, type Target } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import { runCli } from "@pkg/testkit";
import { describe, expect, it } from "vitest";
import type { CheckReport } from "../src/pipeline/check.js";
import { readPublishedSummary } from "../src/plan/read-summary.js";
import type { SummaryTags } from "../src/plan/summary-document.js";
import { helloAssetKeys, helloForge, runnersFor } from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import { buildTimeOf, mirrorBin, type SyncJson, syncReport, syncSpec } from "./support/sync-run.js";

const PLATFORM = "linux/amd64";
const kinds = { [PLATFORM]: "tar.gz" } as const;

const env = useSyncEnv("pkg-mirror-sync-summary-", {
  proxy: true,
  forge: helloForge(["1.0.0", "1.1.0"], kinds),
});

function spec(repository: string): string {
  return syncSpec(env.proxy.host, repository, {
    ...helloAssetKeys(kinds),
    platforms: runnersFor([PLATFORM]),
  });
}

async function sync(repository: string, args: string[]): Promise<SyncJson & { stderr: string }> {
  const dashed = repository.replace("/", "-");
  const { report, stderr } = await syncReport(env.work.path, `${dashed}.yml`, spec(repository), env.forge, [
    "--work-dir",
    `work-${dashed}`,
    ...args,
  ]);
  return { ...report, stderr };
}

/** `package check --format json` of the spec `sync` wrote, with the manifests it requested. */
async function check(repository: string, args: string[] = []) {
  const mark = env.proxy.requests.length;
  const result = await runCli(
    mirrorBin,
    ["package", "check", `${repository.replace("/", "-")}.yml`, "--format", "json", ...args],
    { cwd: env.work.path, env: { PKG_FORGEONE_API_URL: env.forge.url } },
  );
  expect(result.code, result.stderr).toBe(0);
  const manifests = env.proxy.requests
    .slice(mark)
    .flatMap((r) => (r.url.includes("/manifests/") ? [r.url.slice(r.url.lastIndexOf("/") + 1)] : []));
  return { report: JSON.parse(result.stdout) as CheckReport, manifests };
}

function direct(repository: string): Target {
  return openRegistry({ host: env.registry.host, repository }, { env: {} });
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
    env.proxy.setPlan((request) =>
      request.method === "PUT" && request.url.endsWith(`/manifests/${PUBLISHED_SUMMARY_TAG}`)
        ? { status: 500, body: '{"errors":[{"code":"UNKNOWN","message":"disk full"}]}' }
        : "pass",
    );
    try {
      const report = await sync(repo, []);
      expect(report.counts).toMatchObject({ published: 2, failed: 0 });
      expect(report.stderr).toMatch(/warning: .*acme\/nosummary: the published summary was not updated/);
    } finally {
      env.proxy.setPlan(() => "pass");
    }
    expect(await direct(repo).listTags()).not.toContain(PUBLISHED_SUMMARY_TAG);
    const { report } = await check(repo);
    expect(report.published_reads).toMatchObject({ summary: "absent", summary_hits: 0, index_reads: 2 });
    expect(report.rows.map((r) => r.cells[PLATFORM]?.state)).toEqual(["published", "published"]);
  });
});
