import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openRegistry } from "@pkg/oci";
import { defaultMetadata, serializeMetadata } from "@pkg/package";
import {
  type FaultProxy,
  startFaultProxy,
  startHttpServer,
  startRegistry,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { stringify } from "yaml";
import { publishWithSummary } from "../../packages/mirror/test/support/publish-with-summary.js";
import { repoRoot, timedRun } from "./measure.js";
import { platformSlug } from "./sync-assets.js";

const mirrorBin = join(repoRoot, "packages/mirror/bin/pkg-mirror.js");

/**
 * The goals: under 3 s, and HTTP requests close to the listing pages plus the tag-list
 * pages rather than one per version (read here as at most 10 requests beyond those).
 */
export const checkGoal = { seconds: 3, extraRequests: 10 };

const RELEASES = 2_000;
const PUBLISHED = 1_000;
const PER_PAGE = 100;
const PLATFORMS = [
  "linux/amd64",
  "linux/arm64",
  "linux/amd64+libc.musl",
  "darwin/amd64",
  "darwin/arm64",
  "windows/amd64",
];
const releasesPath = "/repos/acme/tool/releases";

/** One timed `package check` and the requests it made. */
export interface CheckRun {
  seconds: number;
  forgeRequests: number;
  tagListRequests: number;
  /** Manifest reads: the summary's and one per version record tag the summary did not cover. */
  manifestRequests: number;
  otherRegistryRequests: number;
  /** As the report states them: whether the summary was used, record tags it covered, indexes read. */
  summary: string;
  summaryHits: number;
  indexReads: number;
  /** Cells of the report by state, as a sanity check of what was measured. */
  states: Record<string, number>;
}

export interface CheckBenchResult {
  pages: number;
  /** Against a repository published the way sync publishes: with its summary. */
  withSummary: CheckRun;
  /** The same check with `--verify-published`: what a repository without a summary costs. */
  verified: CheckRun;
  secondsOk: boolean;
  requestsOk: boolean;
  ok: boolean;
}

/** Release i (0 = newest): versions 1.0.0 .. 5.19.19, in series of 20. */
function versionOf(i: number): string {
  const n = RELEASES - 1 - i;
  return `${1 + Math.floor(n / 400)}.${Math.floor(n / 20) % 20}.${n % 20}`;
}

function releasesBody(page: number): string {
  const releases = [];
  for (let i = (page - 1) * PER_PAGE; i < Math.min(page * PER_PAGE, RELEASES); i++) {
    const version = versionOf(i);
    releases.push({
      tag_name: `v${version}`,
      draft: false,
      prerelease: false,
      assets: PLATFORMS.map((p) => ({
        name: `tool-${version}-${platformSlug(p)}.tar.gz`,
        browser_download_url: `https://downloads.example/v${version}/tool-${version}-${platformSlug(p)}.tar.gz`,
        digest: `sha256:${"0".repeat(64)}`,
      })),
    });
  }
  return JSON.stringify(releases);
}

/** The loopback forge and registry a check or a plan runs against, and the spec naming them. */
export interface ForgeFixture {
  pages: number;
  specPath: string;
  forge: TestServer;
  proxy: FaultProxy;
}

export const checkFixtureShape = { releases: RELEASES, published: PUBLISHED, platforms: PLATFORMS.length };

export async function runCheckBench(): Promise<CheckBenchResult> {
  return withForgeFixture(async ({ pages, specPath, forge, proxy }) => {
    const run = (args: string[]) => timedCheck(specPath, args, { forge, proxy });
    const withSummary = await run([]);
    const verified = await run(["--verify-published"]);
    return { pages, withSummary, verified, ...goalsMet(withSummary, pages) };
  });
}

/**
 * Starts a forge of 2,000 releases x 6 platforms (100 a page) and a registry (behind a counting
 * proxy) with the older 1,000 versions published with their summary, as sync publishes them.
 */
export async function withForgeFixture<T>(body: (fixture: ForgeFixture) => Promise<T>): Promise<T> {
  const pages = Math.ceil(RELEASES / PER_PAGE);
  const dir = await tempDir("bench-check-");
  const registry = await startRegistry();
  const forge = await startHttpServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://forge");
    if (url.pathname !== releasesPath) return res.writeHead(404).end('{"message":"Not Found"}');
    const page = Number(url.searchParams.get("page") ?? "1");
    const next = `<http://${req.headers.host}${releasesPath}?per_page=${PER_PAGE}&page=${page + 1}>; rel="next"`;
    res.writeHead(200, { "content-type": "application/json", ...(page < pages ? { link: next } : {}) });
    res.end(releasesBody(page));
  });
  const proxy = await startFaultProxy(registry.url);
  try {
    // setup, not timed: the older half published whole (exact and primary tag per version), and
    // the published summary written from those pushes, as sync writes it
    const older = Array.from({ length: PUBLISHED }, (_, k) => versionOf(RELEASES - 1 - k));
    const summary = await publishWithSummary(
      openRegistry({ host: registry.host, repository: "acme/tool" }),
      older.map((v) => ({ tags: [v, `${v}_20250101120000`], platforms: PLATFORMS })),
      // package metadata, as a published package carries: what a plan's drift scan reads
      serializeMetadata(defaultMetadata()),
    );
    if (summary.status !== "written")
      throw new Error(`the published summary was not written: ${JSON.stringify(summary)}`);
    await mkdir(join(dir.path, ".git"));
    const specPath = join(dir.path, "mirror.yml");
    await writeFile(
      specPath,
      stringify({
        name: "tool",
        target: { registry: proxy.host, repository: "acme/tool" },
        source: { type: "forgeone_release", owner: "acme", repo: "tool" },
        assets: Object.fromEntries(PLATFORMS.map((p) => [p, [`^tool-.*-${platformSlug(p)}\\.tar\\.gz$`]])),
      }),
    );
    return await body({ pages, specPath, forge, proxy });
  } finally {
    await proxy.stop();
    await forge.stop();
    await registry.stop();
    await dir.remove();
  }
}

async function timedCheck(
  specPath: string,
  args: string[],
  servers: { forge: TestServer; proxy: FaultProxy },
): Promise<CheckRun> {
  const forgeMark = servers.forge.requests.length;
  const registryMark = servers.proxy.requests.length;
  const { seconds, stdout } = await timedRun(
    process.execPath,
    [mirrorBin, "package", "check", specPath, "--format", "json", ...args],
    { env: { PKG_FORGEONE_API_URL: servers.forge.url } },
  );
  const report = JSON.parse(stdout) as {
    rows: Array<{ cells: Record<string, { state: string }> }>;
    published_reads: { summary: string; summary_hits: number; index_reads: number };
  };
  const states: Record<string, number> = {};
  for (const row of report.rows) {
    for (const cell of Object.values(row.cells)) states[cell.state] = (states[cell.state] ?? 0) + 1;
  }
  const paths = servers.proxy.requests.slice(registryMark).map((r) => r.url);
  const tagListRequests = paths.filter((p) => p.includes("/tags/list")).length;
  const manifestRequests = paths.filter((p) => p.includes("/manifests/")).length;
  return {
    seconds,
    forgeRequests: servers.forge.requests.length - forgeMark,
    tagListRequests,
    manifestRequests,
    otherRegistryRequests: paths.length - tagListRequests - manifestRequests,
    summary: report.published_reads.summary,
    summaryHits: report.published_reads.summary_hits,
    indexReads: report.published_reads.index_reads,
    states,
  };
}

const registryTotal = (run: CheckRun) =>
  run.tagListRequests + run.manifestRequests + run.otherRegistryRequests;

/** Requests beyond the listing pages and the tag-list pages: what the goal bounds. */
const extraRequests = (run: CheckRun, pages: number) =>
  run.forgeRequests - pages + registryTotal(run) - run.tagListRequests;

function goalsMet(run: CheckRun, pages: number) {
  const secondsOk = run.seconds < checkGoal.seconds;
  const requestsOk = extraRequests(run, pages) <= checkGoal.extraRequests;
  return { secondsOk, requestsOk, ok: secondsOk && requestsOk };
}

function formatRun(title: string, run: CheckRun, pages: number): string[] {
  const states = Object.entries(run.states)
    .map(([state, n]) => `${n} ${state}`)
    .join(", ");
  return [
    `  ${title}: wall ${run.seconds.toFixed(2)} s`,
    `    forge requests ${run.forgeRequests} (${pages} pages)`,
    `    registry requests ${registryTotal(run)}: ${run.tagListRequests} tag-list pages, ${run.manifestRequests} manifest reads, ${run.otherRegistryRequests} other`,
    `    published summary ${run.summary}: ${run.summaryHits} record tags from it, ${run.indexReads} image indexes read`,
    `    requests beyond pages + tag-list pages: ${extraRequests(run, pages)}`,
    `    report: ${states}`,
  ];
}

export function formatCheckBench(result: CheckBenchResult): string {
  const run = result.withSummary;
  return [
    `package check of ${RELEASES} releases (${result.pages} pages) x ${PLATFORMS.length} platforms, ${PUBLISHED} versions already published (whole process)`,
    ...formatRun("with the published summary", run, result.pages),
    ...formatRun(
      "--verify-published (every index read, as without a summary)",
      result.verified,
      result.pages,
    ),
    `  wall ${run.seconds.toFixed(2)} s (goal < ${checkGoal.seconds} s) ${result.secondsOk ? "met" : "NOT MET"}`,
    `  requests beyond pages + tag-list pages: ${extraRequests(run, result.pages)} (goal <= ${checkGoal.extraRequests}) ${result.requestsOk ? "met" : "NOT MET"}`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runCheckBench();
  process.stdout.write(`${formatCheckBench(result)}\n`);
}
