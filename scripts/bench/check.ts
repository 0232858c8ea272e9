import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openRegistry } from "@pkg/oci";
import { startFaultProxy, startHttpServer, startRegistry, tempDir } from "@pkg/testkit";
import { stringify } from "yaml";
import { publishIndexes } from "../../packages/mirror/test/support/publish-indexes.js";
import { repoRoot, timedRun } from "./measure.js";

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

export interface CheckBenchResult {
  seconds: number;
  pages: number;
  forgeRequests: number;
  tagListRequests: number;
  indexRequests: number;
  otherRegistryRequests: number;
  /** Cells of the report by state, as a sanity check of what was measured. */
  states: Record<string, number>;
  secondsOk: boolean;
  requestsOk: boolean;
  ok: boolean;
}

/** Release i (0 = newest): versions 1.0.0 .. 5.19.19, in series of 20. */
function versionOf(i: number): string {
  const n = RELEASES - 1 - i;
  return `${1 + Math.floor(n / 400)}.${Math.floor(n / 20) % 20}.${n % 20}`;
}

function slug(platform: string): string {
  return platform.replace(/[/+]/g, "-");
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
        name: `tool-${version}-${slug(p)}.tar.gz`,
        browser_download_url: `https://downloads.example/v${version}/tool-${version}-${slug(p)}.tar.gz`,
        digest: `sha256:${"0".repeat(64)}`,
      })),
    });
  }
  return JSON.stringify(releases);
}

export async function runCheckBench(): Promise<CheckBenchResult> {
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
    // setup, not timed: the older half published whole (exact and primary tag per version)
    const older = Array.from({ length: PUBLISHED }, (_, k) => versionOf(RELEASES - 1 - k));
    await publishIndexes(
      openRegistry({ host: registry.host, repository: "acme/tool" }),
      older.map((v) => ({ tags: [v, `${v}_20250101120000`], platforms: PLATFORMS })),
    );
    await mkdir(join(dir.path, ".git"));
    await writeFile(
      join(dir.path, "mirror.yml"),
      stringify({
        name: "tool",
        target: { registry: proxy.host, repository: "acme/tool" },
        source: { type: "forgeone_release", owner: "acme", repo: "tool" },
        assets: Object.fromEntries(PLATFORMS.map((p) => [p, [`^tool-.*-${slug(p)}\\.tar\\.gz$`]])),
      }),
    );
    const { seconds, stdout } = await timedRun(
      process.execPath,
      [mirrorBin, "package", "check", join(dir.path, "mirror.yml"), "--format", "json"],
      { env: { PKG_FORGEONE_API_URL: forge.url } },
    );
    const report = JSON.parse(stdout) as { rows: Array<{ cells: Record<string, { state: string }> }> };
    const states: Record<string, number> = {};
    for (const row of report.rows) {
      for (const cell of Object.values(row.cells)) states[cell.state] = (states[cell.state] ?? 0) + 1;
    }
    const paths = proxy.requests.map((r) => r.url);
    const tagListRequests = paths.filter((p) => p.includes("/tags/list")).length;
    const indexRequests = paths.filter((p) => p.includes("/manifests/")).length;
    return {
      seconds,
      pages,
      forgeRequests: forge.requests.length,
      tagListRequests,
      indexRequests,
      otherRegistryRequests: paths.length - tagListRequests - indexRequests,
      states,
      ...goalsMet(seconds, forge.requests.length + paths.length - pages - tagListRequests),
    };
  } finally {
    await proxy.stop();
    await forge.stop();
    await registry.stop();
    await dir.remove();
  }
}

function goalsMet(seconds: number, extraRequests: number) {
  const secondsOk = seconds < checkGoal.seconds;
  const requestsOk = extraRequests <= checkGoal.extraRequests;
  return { secondsOk, requestsOk, ok: secondsOk && requestsOk };
}

export function formatCheckBench(result: CheckBenchResult): string {
  const registryTotal = result.tagListRequests + result.indexRequests + result.otherRegistryRequests;
  const states = Object.entries(result.states)
    .map(([state, n]) => `${n} ${state}`)
    .join(", ");
  return [
    `package check of ${RELEASES} releases (${result.pages} pages) x ${PLATFORMS.length} platforms, ${PUBLISHED} versions already published (whole process)`,
    `  wall ${result.seconds.toFixed(2)} s (goal < ${checkGoal.seconds} s) ${result.secondsOk ? "met" : "NOT MET"}`,
    `  forge requests ${result.forgeRequests} (${result.pages} pages)`,
    `  registry requests ${registryTotal}: ${result.tagListRequests} tag-list pages, ${result.indexRequests} index reads, ${result.otherRegistryRequests} other`,
    `  requests beyond pages + tag-list pages: ${result.forgeRequests - result.pages + registryTotal - result.tagListRequests} (goal <= ${checkGoal.extraRequests}) ${result.requestsOk ? "met" : "NOT MET"}`,
    `  report: ${states}`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runCheckBench();
  process.stdout.write(`${formatCheckBench(result)}\n`);
}
