// Benchmark of `pkg-mirror package check`: an upstream of 2,000 releases (20 pages of 100) with
// 6 platforms, against a real registry already holding the older 1,000 versions. The check runs
// as a whole process (the built bin: `npm run bench` builds first); the forge's and the
// registry's request logs count what it asked.
// Run: npx tsx --conditions=source scripts/bench/check.ts
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { openRegistry } from "@pkg/oci";
import { startFaultProxy, startHttpServer, startRegistry, tempDir } from "@pkg/testkit";
import { stringify } from "yaml";
import { publishIndexes } from "../../packages/mirror/test/support/publish-indexes.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const mirrorBin = join(repoRoot, "packages/mirror/bin/pkg-mirror.js");

export const checkGoal = { seconds: 3 };

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

async function runTimed(
  args: string[],
  env: Record<string, string>,
): Promise<{ seconds: number; stdout: string }> {
  const started = performance.now();
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [mirrorBin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`pkg-mirror ${args.join(" ")} exited ${code}: ${err}`)),
    );
  });
  return { seconds: (performance.now() - started) / 1000, stdout };
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
    const { seconds, stdout } = await runTimed(
      ["package", "check", join(dir.path, "mirror.yml"), "--format", "json"],
      { PKG_FORGEONE_API_URL: forge.url },
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
      ok: seconds < checkGoal.seconds,
    };
  } finally {
    await proxy.stop();
    await forge.stop();
    await registry.stop();
    await dir.remove();
  }
}

export function formatCheckBench(result: CheckBenchResult): string {
  const registryTotal = result.tagListRequests + result.indexRequests + result.otherRegistryRequests;
  const states = Object.entries(result.states)
    .map(([state, n]) => `${n} ${state}`)
    .join(", ");
  return [
    `package check of ${RELEASES} releases (${result.pages} pages) x ${PLATFORMS.length} platforms, ${PUBLISHED} versions already published (whole process)`,
    `  wall ${result.seconds.toFixed(2)} s (goal < ${checkGoal.seconds} s) ${result.ok ? "met" : "NOT MET"}`,
    `  forge requests ${result.forgeRequests} (${result.pages} pages)`,
    `  registry requests ${registryTotal}: ${result.tagListRequests} tag-list pages, ${result.indexRequests} index reads, ${result.otherRegistryRequests} other`,
    `  report: ${states}`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runCheckBench();
  process.stdout.write(`${formatCheckBench(result)}\n`);
}
