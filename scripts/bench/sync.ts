import { createReadStream, existsSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";
import { startFaultProxy, startHttpServer, startRegistry, type TestServer, tempDir } from "@pkg/testkit";
import { stringify } from "yaml";
import { type ForgeRelease, forgeRelease, startForge } from "../../packages/mirror/test/support/forge.js";
import { repoRoot, timedRun } from "./measure.js";
import { type BenchAsset, platformSlug, smallAsset, syncAssets } from "./sync-assets.js";

const mirrorBin = join(repoRoot, "packages/mirror/bin/pkg-mirror.js");
const gnuTime = "/usr/bin/time";

export const syncGoals = { ratio: 1.3, peakRssBytes: 300e6, noopSeconds: 2 };

export const PLATFORMS = ["linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"];
export const VERSIONS = Array.from({ length: 20 }, (_, i) => `1.${i}.0`);
/** The no-op run's 500 versions x 6 platforms (the full run keeps its 4). */
const NOOP_VERSIONS = Array.from({ length: 500 }, (_, i) => `${1 + Math.floor(i / 10)}.${i % 10}.0`);
const NOOP_PLATFORMS = [...PLATFORMS, "linux/arm/v7", "windows/amd64"];
/** The spec's default `max_downloads`, which the reference download uses too. */
const MAX_DOWNLOADS = 8;
const REPO = "acme/tool";
/** Rounds of the full-sync comparison by default: the goal holds in every one of them. */
const SYNC_ROUNDS = 5;

/** One round of the full sync: the raw parts, then ours, and their ratio. */
export interface SyncRound {
  downloadSeconds: number;
  zstdSeconds: number;
  skopeoSeconds: number;
  partsSeconds: number;
  oursSeconds: number;
  ratio: number;
  peakRssBytes: number;
}

export interface SyncBenchResult {
  assets: { count: number; bytes: number };
  rounds: SyncRound[];
  /** The highest ratio of the rounds: the goal is met only if every round meets it. */
  worstRatio: number;
  /** The highest of the rounds. */
  peakRssBytes: number;
  noop: {
    versions: number;
    platforms: number;
    seconds: number;
    forgeRequests: number;
    registryRequests: Record<string, number>;
  };
  ok: boolean;
}

const bash = (script: string, args: string[]) =>
  timedRun("bash", ["-c", `set -o pipefail; ${script}`, "bench", ...args]);

export function mirrorSpec(
  registry: string,
  assetPattern: (platform: string) => string,
  platforms: readonly string[] = PLATFORMS,
): string {
  return stringify({
    name: "tool",
    target: { registry, repository: REPO },
    source: { type: "forgeone_release", owner: "acme", repo: "tool" },
    assets: Object.fromEntries(platforms.map((p) => [p, [assetPattern(p)]])),
  });
}

export const assetPattern = (p: string) => `^tool-.*-${platformSlug(p)}\\.tar\\.gz$`;

/** The releases of `assets` (newest first), their files linked under `<baseUrl>/files/`. */
function releasesOf(assets: readonly BenchAsset[], baseUrl: string): ForgeRelease[] {
  return VERSIONS.map((version) =>
    forgeRelease(
      `v${version}`,
      assets
        .filter((a) => a.version === version)
        .map((a) => ({ name: a.name, digest: a.digest, url: `${baseUrl}/files/${a.name}` })),
    ),
  ).reverse();
}

/** A forge whose release assets are streamed from disk. */
export async function startDiskForge(assets: readonly BenchAsset[]): Promise<TestServer> {
  const paths = new Map(assets.map((a) => [a.name, a.path]));
  const releases: ForgeRelease[] = [];
  const server = await startHttpServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://forge");
    const path = url.pathname.startsWith("/files/")
      ? paths.get(decodeURIComponent(url.pathname.slice("/files/".length)))
      : undefined;
    if (path) {
      res.writeHead(200, {
        "content-type": "application/octet-stream",
        "content-length": (await stat(path)).size,
      });
      return pipeline(createReadStream(path), res);
    }
    if (url.pathname !== `/repos/${REPO}/releases`) return res.writeHead(404).end('{"message":"Not Found"}');
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(releases));
  });
  releases.push(...releasesOf(assets, server.url));
  return server;
}

/** A directory for a sync process: the spec (and a `.git`, which marks the repository root). */
export async function specDir(dir: string, yaml: string): Promise<string> {
  await mkdir(join(dir, ".git"), { recursive: true });
  await writeFile(join(dir, "mirror.yml"), yaml);
  return dir;
}

interface SyncRun {
  seconds: number;
  peakRssBytes: number;
  counts: Record<string, number>;
}

/** One `package sync` process under GNU time, for its peak RSS; `nodeFlags` go to its node. */
async function runSync(
  cwd: string,
  forge: TestServer,
  extra: string[] = [],
  nodeFlags: string[] = [],
): Promise<SyncRun> {
  const rssFile = join(cwd, "max-rss-kib");
  const { seconds, stdout } = await timedRun(
    gnuTime,
    ["-f", "%M", "-o", rssFile, process.execPath, ...nodeFlags, mirrorBin, "package", "sync", "mirror.yml"]
      .concat(["--format", "json", "--work-dir", join(cwd, "work")])
      .concat(extra),
    { cwd, env: { PKG_FORGEONE_API_URL: forge.url } },
  );
  const report = JSON.parse(stdout) as { counts: Record<string, number> };
  const peakRssBytes = Number((await readFile(rssFile, "utf8")).trim()) * 1024;
  return { seconds, peakRssBytes, counts: report.counts };
}

function expectCounts(what: string, counts: Record<string, number>, expected: Record<string, number>) {
  for (const [status, n] of Object.entries(expected)) {
    if (counts[status] !== n)
      throw new Error(`${what}: expected ${n} ${status}, got ${JSON.stringify(counts)}`);
  }
}

/** The layout `sync --layout` makes of the assets: skopeo's source. Made once, kept beside the assets. */
async function syncedLayout(benchDir: string, forge: TestServer, pairs: number): Promise<string> {
  const layout = join(benchDir, "sync", "layout");
  const done = join(benchDir, "sync", "layout.done");
  if (existsSync(done)) return layout;
  process.stderr.write(`making the reference layout ${layout} with sync --layout (once)\n`);
  await rm(layout, { recursive: true, force: true });
  const dir = await tempDir("bench-sync-layout-");
  try {
    await specDir(dir.path, mirrorSpec("bench.invalid", assetPattern));
    const made = await runSync(dir.path, forge, ["--layout", layout]);
    expectCounts("sync --layout", made.counts, { published: pairs, failed: 0 });
    await writeFile(done, "");
    return layout;
  } finally {
    await dir.remove();
  }
}

async function referenceDownload(forge: TestServer, assets: readonly BenchAsset[], out: string) {
  const config = assets.map((a) => `url = "${forge.url}/files/${a.name}"\noutput = "${join(out, a.name)}"\n`);
  await writeFile(join(out, "curl.config"), config.join(""));
  return timedRun("curl", [
    "-sSf",
    "--parallel",
    "--parallel-max",
    String(MAX_DOWNLOADS),
    "-K",
    join(out, "curl.config"),
  ]);
}

async function referenceZstd(assets: readonly BenchAsset[], out: string) {
  return bash(
    'out="$1"; shift; for t; do tar -C "$t" -cf - . | zstd -q -T0 -3 > "$out/$(basename "$t").tar.zst"; done',
    [out, ...assets.map((a) => a.tree)],
  );
}

/** One `skopeo copy --all` per version, one after the other (as sync pushes), into a fresh registry. */
async function referenceSkopeo(layout: string): Promise<number> {
  const registry = await startRegistry();
  try {
    const source = join(layout, REPO);
    return (
      await bash(
        'src="$1"; dst="$2"; shift 2; for v; do skopeo copy --all --quiet --dest-tls-verify=false "oci:$src:$v" "docker://$dst:$v"; done',
        [source, `${registry.host}/${REPO}`, ...VERSIONS],
      )
    ).seconds;
  } finally {
    await registry.stop();
  }
}

/** The raw parts once: download, compress the trees, copy the layout; each side starts fresh. */
async function referenceRound(
  forge: TestServer,
  assets: readonly BenchAsset[],
  layout: string,
  scratch: string,
) {
  const downloads = join(scratch, "downloads");
  const zstdOut = join(scratch, "zstd");
  await mkdir(downloads);
  await mkdir(zstdOut);
  const download = (await referenceDownload(forge, assets, downloads)).seconds;
  await rm(downloads, { recursive: true });
  const zstd = (await referenceZstd(assets, zstdOut)).seconds;
  await rm(zstdOut, { recursive: true });
  const skopeo = await referenceSkopeo(layout);
  return { download, zstd, skopeo, parts: download + zstd + skopeo };
}

/** Our sync once, into a fresh registry and work directory. */
async function oursRound(forge: TestServer, assets: readonly BenchAsset[], dir: string): Promise<SyncRun> {
  const registry = await startRegistry();
  try {
    await specDir(dir, mirrorSpec(registry.host, assetPattern));
    const ours = await runSync(dir, forge);
    expectCounts("sync", ours.counts, { published: assets.length, failed: 0 });
    return ours;
  } finally {
    await registry.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Rounds of the reference and of our sync, one after the other, each round compared on its own. */
async function fullSync(benchDir: string, rounds: number) {
  for (const tool of [gnuTime, "/usr/bin/skopeo"]) {
    if (!existsSync(tool)) throw new Error(`${tool} is missing (apt-get install ${tool.split("/").at(-1)})`);
  }
  const assets = await syncAssets(benchDir, VERSIONS, PLATFORMS);
  const forge = await startDiskForge(assets);
  const scratch = await tempDir("bench-sync-");
  try {
    const layout = await syncedLayout(benchDir, forge, assets.length);
    // the same warm page cache for every side: the archives, the trees and the layout read once
    // (tar into a pipe: GNU tar writing to /dev/null itself skips reading the files)
    await bash(
      'for f; do if [ -d "$f" ]; then tar -C "$f" -cf - . | cat > /dev/null; else cat "$f" > /dev/null; fi; done',
      [...assets.map((a) => a.path), ...assets.map((a) => a.tree), layout],
    );
    const results: SyncRound[] = [];
    for (let round = 1; round <= rounds; round++) {
      process.stderr.write(`sync bench round ${round}/${rounds}\n`);
      const reference = await referenceRound(forge, assets, layout, scratch.path);
      const ours = await oursRound(forge, assets, join(scratch.path, `ours-${round}`));
      results.push({
        downloadSeconds: reference.download,
        zstdSeconds: reference.zstd,
        skopeoSeconds: reference.skopeo,
        partsSeconds: reference.parts,
        oursSeconds: ours.seconds,
        ratio: ours.seconds / reference.parts,
        peakRssBytes: ours.peakRssBytes,
      });
    }
    return { assets, rounds: results };
  } finally {
    await scratch.remove();
    await forge.stop();
  }
}

/** Registry requests by kind: tag-list pages, manifest reads and writes, blob requests, the rest. */
function requestKinds(requests: ReadonlyArray<{ method: string; url: string }>): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const { method, url } of requests) {
    const kind = url.includes("/tags/list")
      ? "tag list"
      : url.includes("/manifests/")
        ? `manifest ${method}`
        : url.includes("/blobs/")
          ? `blob ${method}`
          : `other ${method}`;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

/**
 * A registry already holding 500 versions x 6 platforms (synced once, untimed), then a timed
 * second sync, whose node gets `nodeFlags` (sync-profile.ts --noop passes `--cpu-prof`).
 */
export async function noopSync(nodeFlags: string[] = []): Promise<SyncBenchResult["noop"]> {
  const files = new Map<string, Buffer>();
  const releases: ForgeRelease[] = [];
  const forge = await startForge({ repo: REPO, releases, files });
  const registry = await startRegistry();
  const proxy = await startFaultProxy(registry.url);
  const scratch = await tempDir("bench-sync-noop-");
  try {
    for (const version of NOOP_VERSIONS) {
      const listed = [];
      for (const platform of NOOP_PLATFORMS) {
        const name = `tool-${version}-${platformSlug(platform)}.tar.gz`;
        files.set(name, await smallAsset(version, platform));
        listed.push({ name, url: `${forge.url}/files/${name}` });
      }
      releases.unshift(forgeRelease(`v${version}`, listed));
    }
    const pairs = NOOP_VERSIONS.length * NOOP_PLATFORMS.length;
    process.stderr.write(`no-op bench: publishing ${pairs} small assets once (untimed)\n`);
    await specDir(scratch.path, mirrorSpec(proxy.host, assetPattern, NOOP_PLATFORMS));
    const first = await runSync(scratch.path, forge);
    expectCounts("first sync", first.counts, { published: pairs, failed: 0 });
    const [forgeBefore, registryBefore] = [forge.requests.length, proxy.requests.length];
    const again = await runSync(scratch.path, forge, [], nodeFlags);
    expectCounts("no-op sync", again.counts, { published: 0, skipped: pairs, failed: 0 });
    return {
      versions: NOOP_VERSIONS.length,
      platforms: NOOP_PLATFORMS.length,
      seconds: again.seconds,
      forgeRequests: forge.requests.length - forgeBefore,
      registryRequests: requestKinds(proxy.requests.slice(registryBefore)),
    };
  } finally {
    await scratch.remove();
    await proxy.stop();
    await registry.stop();
    await forge.stop();
  }
}

export async function runSyncBench(
  options: { benchDir?: string; rounds?: number } = {},
): Promise<SyncBenchResult> {
  const benchDir = options.benchDir ?? join(repoRoot, ".bench");
  const full = await fullSync(benchDir, options.rounds ?? SYNC_ROUNDS);
  const noop = await noopSync();
  const worstRatio = Math.max(...full.rounds.map((round) => round.ratio));
  const peakRssBytes = Math.max(...full.rounds.map((round) => round.peakRssBytes));
  return {
    assets: { count: full.assets.length, bytes: full.assets.reduce((sum, a) => sum + a.size, 0) },
    rounds: full.rounds,
    worstRatio,
    peakRssBytes,
    noop,
    ok:
      worstRatio <= syncGoals.ratio &&
      peakRssBytes < syncGoals.peakRssBytes &&
      noop.seconds < syncGoals.noopSeconds,
  };
}

const met = (ok: boolean) => (ok ? "met" : "NOT MET");

export function formatSyncBench(result: SyncBenchResult): string {
  const s = (seconds: number) => `${seconds.toFixed(2)} s`;
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  const { noop, rounds } = result;
  const registryTotal = Object.values(noop.registryRequests).reduce((sum, n) => sum + n, 0);
  const kinds = Object.entries(noop.registryRequests)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(", ");
  const roundLine = (round: SyncRound, i: number) =>
    `  round ${i + 1}: parts ${s(round.partsSeconds)} (download ${s(round.downloadSeconds)}, ` +
    `zstd ${s(round.zstdSeconds)}, skopeo ${s(round.skopeoSeconds)}), ours ${s(round.oursSeconds)}, ` +
    `ratio ${round.ratio.toFixed(2)} (goal <= ${syncGoals.ratio}) ${met(round.ratio <= syncGoals.ratio)}`;
  return [
    `package sync of ${VERSIONS.length} versions x ${PLATFORMS.length} platforms, ${result.assets.count} .tar.gz assets ` +
      `of ${mb(result.assets.bytes / result.assets.count)} (${mb(result.assets.bytes)}) from loopback into a local registry`,
    `  ${rounds.length === 1 ? "1 round" : `${rounds.length} rounds`}, each the raw parts (download with curl, ${MAX_DOWNLOADS} at once; ` +
      "tar | zstd -T0 -3 of the unpacked trees; skopeo copy --all per version) then pkg-mirror package sync (whole process)",
    ...rounds.map(roundLine),
    `  ratio every round <= ${syncGoals.ratio}x (worst ${result.worstRatio.toFixed(2)}) ${met(result.worstRatio <= syncGoals.ratio)}`,
    `  peak RSS ${mb(result.peakRssBytes)}, the highest of the rounds (goal < ${mb(syncGoals.peakRssBytes)}) ${met(result.peakRssBytes < syncGoals.peakRssBytes)}`,
    `no-op re-run of package sync over ${noop.versions} published versions x ${noop.platforms} platforms (whole process)`,
    `  wall ${s(noop.seconds)} (goal < ${syncGoals.noopSeconds} s) ${met(noop.seconds < syncGoals.noopSeconds)}`,
    `  forge requests ${noop.forgeRequests}, registry requests ${registryTotal}: ${kinds}`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runSyncBench();
  process.stdout.write(`${formatSyncBench(result)}\n`);
}
