import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { link, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { launchChromium, serveDirectory, tempDir } from "@pkg/testkit";
import {
  catalogBin,
  ocxIndexFixture,
  writeCatalogProject,
} from "../../packages/catalog/test/support/catalog-project.js";
import { startDev } from "../../packages/catalog/test/support/dev-process.js";
import { gzipSize, scriptsBeforeInteraction } from "../../packages/catalog/test/support/page-weight.js";
import { writeSyntheticIndex } from "../../packages/catalog/test/support/synthetic-index.js";
import { type CatalogViewFigures, measureCatalogView } from "./catalog-browser.js";
import { median, repoRoot, timedRun } from "./measure.js";

const gnuTime = "/usr/bin/time";
const supportDir = join(repoRoot, "packages/catalog/test/support");
const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/** The issue's goals, and what the reference implementation needs for the same work. */
export const catalogGoals = {
  seconds: 15,
  peakRssBytes: 512 * MiB,
  rebuildSeconds: 1,
  devRebuildSeconds: 1,
  catalogJsBytes: 8 * KiB,
  firstPageGzipBytes: 30 * KiB,
  keystrokeMs: 50,
};
export const catalogReference = { seconds: 406, peakRssBytes: 2.9 * GiB, catalogJsBytes: 11 * KiB };

/** Rebuilds measured, each after another one-package change; the goal is checked on their median. */
const rebuildRounds = 3;

const SYNTHETIC = { packages: 10_000, readmeBytes: 20_000, seed: 1 };

export interface PageFigures {
  kind: string;
  path: string;
  htmlBytes: number;
  htmlGzipBytes: number;
  scripts: number;
  jsBytes: number;
  jsGzipBytes: number;
}

export interface CatalogBenchResult {
  synthetic: {
    packages: number;
    readmeBytes: number;
    seconds: number;
    cpuSeconds: number;
    systemSeconds: number;
    peakRssBytes: number;
    /** The same build with its output on a tmpfs, where there is one. */
    inMemory: { seconds: number; cpuSeconds: number } | undefined;
    /** The built site copied by `cp -a` beside itself: what the disk charges for its tree alone. */
    copy: { seconds: number; systemSeconds: number };
  };
  /** The same build again onto its output after one package changed, `rounds` times (another
   *  package each time): the median, and each round's wall seconds. */
  rebuild: {
    seconds: number;
    rounds: number[];
    cpuSeconds: number;
    peakRssBytes: number;
    packagesRead: number;
    pagesRendered: number;
  };
  /** `pkg-catalog dev` on the same index: from writing one changed package to the rebuilt line. */
  dev: { seconds: number[]; lines: string[] };
  fixture: { packages: number; seconds: number; pages: PageFigures[] };
  /** The catalog view of the 10,000-package site in Chromium. */
  view: CatalogViewFigures;
  secondsOk: boolean;
  viewOk: boolean;
  rssOk: boolean;
  rebuildOk: boolean;
  devOk: boolean;
  jsOk: boolean;
  ok: boolean;
}

interface BuildReportJson {
  packageData: { read: number; reused: number };
  packagePages: { rendered: number; reused: number };
}

/** `pkg-catalog build` as one child process under GNU time (`%M`: the child's max RSS in KiB; `%U`,
 *  `%S`: its CPU seconds in user and system mode, its threads' together), its build memo in
 *  `cacheDir`. */
async function timedBuild(
  config: string,
  out: string,
  cacheDir: string,
): Promise<{
  seconds: number;
  cpuSeconds: number;
  systemSeconds: number;
  peakRssBytes: number;
  report: BuildReportJson;
}> {
  if (!existsSync(gnuTime)) throw new Error(`${gnuTime} is missing (apt-get install time)`);
  const rssFile = `${out}.max-rss-kib`;
  const { seconds, stdout } = await timedRun(
    gnuTime,
    ["-f", "%M %U %S", "-o", rssFile, process.execPath, catalogBin].concat([
      "build",
      config,
      "--out",
      out,
      "--cache-dir",
      cacheDir,
      "--format",
      "json",
    ]),
  );
  const [maxRss, user, system] = (await readFile(rssFile, "utf8")).trim().split(/\s+/).map(Number);
  await rm(rssFile, { force: true });
  return {
    seconds,
    cpuSeconds: (user ?? 0) + (system ?? 0),
    systemSeconds: system ?? 0,
    peakRssBytes: (maxRss ?? 0) * KiB,
    report: JSON.parse(stdout) as BuildReportJson,
  };
}

/** A copy of an index tree made of hard links (the files are never written in place: `changeOne`
 *  replaces what it changes), so the generated index stays as it is. */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.isDirectory()) await linkTree(join(from, entry.name), join(to, entry.name));
    else await link(join(from, entry.name), join(to, entry.name));
  }
}

/** Replaces a file by a new one (a new inode: the old may be linked from elsewhere). */
async function replaceFile(path: string, data: string | Uint8Array): Promise<void> {
  await writeFile(`${path}.new`, data);
  await rename(`${path}.new`, path);
}

/** Changes the description of the `n`-th package, as a publisher would: a new root, and its digest
 *  in c/index.json. */
async function changeOne(indexDir: string, n: number): Promise<string> {
  const catalogPath = join(indexDir, "c", "index.json");
  const catalog = JSON.parse(await readFile(catalogPath, "utf8")) as { packages: Record<string, string> };
  const key = Object.keys(catalog.packages).sort()[n] as string;
  const rootPath = join(indexDir, "p", `${key}.json`);
  const root = JSON.parse(await readFile(rootPath, "utf8")) as { desc?: Record<string, unknown> };
  root.desc = { ...root.desc, description: `Changed by the benchmark (${n}).` };
  const bytes = Buffer.from(JSON.stringify(root));
  await replaceFile(rootPath, bytes);
  catalog.packages[key] = `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
  await replaceFile(catalogPath, `${JSON.stringify(catalog, null, 2)}\n`);
  return key;
}

/** The project of the synthetic index, on a linked copy of it that the benchmark may change. */
async function writableProject(config: string, dir: string): Promise<string> {
  await linkTree(join(config, "..", "index"), join(dir, "index"));
  const copy = join(dir, "catalog.config.json");
  await writeFile(copy, await readFile(config));
  return copy;
}

/** `pkg-catalog dev` on the project: after each one-package change, the time until it printed its
 *  rebuilt line. The first change may wait for the second build directory to be made. */
async function measureDev(project: string, tmp: string, changes: number): Promise<CatalogBenchResult["dev"]> {
  await mkdir(tmp, { recursive: true });
  const dev = await startDev([], { cwd: project, env: { TMPDIR: tmp } });
  const seconds: number[] = [];
  const lines: string[] = [];
  try {
    for (let n = 0; n <= changes; n++) {
      const before = (dev.stderr().match(/^rebuilt in .*$/gm) ?? []).length;
      const started = performance.now();
      await changeOne(join(project, "index"), 100 + n);
      for (;;) {
        const rebuilt = dev.stderr().match(/^rebuilt in .*$/gm) ?? [];
        if (rebuilt.length > before && / read [1-9]/.test(rebuilt.at(-1) ?? "")) {
          if (n > 0) {
            seconds.push((performance.now() - started) / 1000);
            lines.push(rebuilt.at(-1) ?? "");
          }
          break;
        }
        if (/^rebuild failed/m.test(dev.stderr())) throw new Error(`dev rebuild failed:\n${dev.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // the next change comes once this one settled (a change may take two builds)
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  } finally {
    await dev.stop();
  }
  return { seconds, lines };
}

/** The shared-memory filesystem, where the output of a build can go without a disk. */
const shm = "/dev/shm";

/**
 * The same full build with its output and memo on a tmpfs: what the build itself costs. On a disk,
 * creating the site's 120,000 files and 70,000 directories costs kernel time that depends on the
 * filesystem's state (ext4 searches past inodes freed in the last minutes, so a build right after
 * a large delete can take twice as long); undefined where there is no tmpfs.
 */
async function inMemoryBuild(config: string): Promise<{ seconds: number; cpuSeconds: number } | undefined> {
  if (!existsSync(shm)) return undefined;
  const scratch = await mkdtemp(join(shm, "bench-catalog-"));
  try {
    const { seconds, cpuSeconds } = await timedBuild(config, join(scratch, "site"), join(scratch, "cache"));
    return { seconds, cpuSeconds };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * The built site copied by `cp -a` beside itself, on the same filesystem: the cost of creating its
 * directories, files and hard links there with no build at all. Measured last, so that the removal of
 * the copy (with the rest of the scratch directory) cannot slow a measured build: ext4 without a
 * journal searches past inodes freed in the last minutes.
 */
async function copyOfSite(site: string, into: string): Promise<{ seconds: number; systemSeconds: number }> {
  const timeFile = `${into}.time`;
  const { seconds } = await timedRun(gnuTime, ["-f", "%S", "-o", timeFile, "cp", "-a", site, into]);
  const systemSeconds = Number((await readFile(timeFile, "utf8")).trim());
  return { seconds, systemSeconds };
}

/** The 10,000-package project under `.bench/catalog-10k` (index generated once, kept). */
async function syntheticProject(benchDir: string): Promise<string> {
  const dir = join(benchDir, "catalog-10k");
  const done = join(dir, "index.done");
  // regenerated when the options or the generator change
  const generator = await Promise.all(
    ["synthetic-index.ts", "synthetic-readme.ts", "prng.ts"].map((f) => readFile(join(supportDir, f))),
  );
  const stamp = JSON.stringify({
    ...SYNTHETIC,
    generator: createHash("sha256").update(Buffer.concat(generator)).digest("hex"),
  });
  if (!existsSync(done) || (await readFile(done, "utf8")) !== stamp) {
    process.stderr.write(`generating ${SYNTHETIC.packages} synthetic packages into ${dir} (once)\n`);
    await rm(dir, { recursive: true, force: true });
    await writeSyntheticIndex(join(dir, "index"), SYNTHETIC);
    await writeFile(done, stamp);
  }
  const config = join(dir, "catalog.config.json");
  const body = { sources: [{ path: "./index", root: true }], brand: { title: "Synthetic 10k" } };
  await writeFile(config, `${JSON.stringify(body, null, 2)}\n`);
  return config;
}

/** A build that skipped packages measured less than the work asked for: that fails the bench. */
async function expectPackages(site: string, expected: number): Promise<void> {
  const catalog = JSON.parse(await readFile(join(site, "catalog.json"), "utf8")) as { packages: unknown[] };
  if (catalog.packages.length !== expected) {
    throw new Error(`the build of ${site} has ${catalog.packages.length} packages, not ${expected}`);
  }
}

const docsPage =
  "# Using the catalog\n\nInstall any package with `pkg install <name>`.\n\n## Next\n\n- [Packages](/)\n";

/** The pages measured on the fixture site: the catalog view, a package page, a docs page if built. */
const fixturePages: Array<{ kind: string; path: string; file: string }> = [
  { kind: "catalog view", path: "/", file: "index.html" },
  { kind: "package page", path: "/miniserve/miniserve/", file: "miniserve/miniserve/index.html" },
  { kind: "docs page", path: "/docs/", file: "docs/index.html" },
];

async function measureFixture(scratch: string): Promise<CatalogBenchResult["fixture"]> {
  const config = await writeCatalogProject(join(scratch, "fixture"), {
    index: ocxIndexFixture,
    docs: { "index.md": docsPage },
  });
  const out = join(scratch, "fixture-site");
  const { seconds } = await timedBuild(config, out, join(scratch, "fixture-cache"));
  const catalog = JSON.parse(await readFile(join(ocxIndexFixture, "c/index.json"), "utf8")) as {
    packages: Record<string, string>;
  };
  await expectPackages(out, Object.keys(catalog.packages).length);
  const server = await serveDirectory(out);
  const chromium = await launchChromium();
  try {
    const pages: PageFigures[] = [];
    for (const { kind, path, file } of fixturePages) {
      const html = await readFile(join(out, file)).catch(() => undefined);
      if (!html) continue;
      const context = await chromium.browser.newContext();
      const page = await context.newPage();
      const js = await scriptsBeforeInteraction(page, `${server.url}${path}`);
      await context.close();
      pages.push({
        kind,
        path,
        htmlBytes: html.length,
        htmlGzipBytes: gzipSize(html),
        scripts: js.count,
        jsBytes: js.bytes,
        jsGzipBytes: js.gzipBytes,
      });
    }
    return { packages: Object.keys(catalog.packages).length, seconds, pages };
  } finally {
    await chromium.close();
    await server.stop();
  }
}

export async function runCatalogBench(options: { benchDir?: string } = {}): Promise<CatalogBenchResult> {
  const benchDir = options.benchDir ?? join(repoRoot, ".bench");
  await mkdir(benchDir, { recursive: true });
  const config = await syntheticProject(benchDir);
  const scratch = await tempDir("bench-catalog-");
  try {
    const project = await writableProject(config, join(scratch.path, "project"));
    const cache = join(scratch.path, "cache");
    const syntheticSite = join(scratch.path, "synthetic-site");
    const full = await timedBuild(project, syntheticSite, cache);
    const synthetic = {
      ...SYNTHETIC,
      seconds: full.seconds,
      cpuSeconds: full.cpuSeconds,
      systemSeconds: full.systemSeconds,
      peakRssBytes: full.peakRssBytes,
      inMemory: await inMemoryBuild(project),
    };
    await expectPackages(syntheticSite, SYNTHETIC.packages);
    // the kernel's writeback of the full builds' files would otherwise run during the rebuild
    execFileSync("sync");
    const rebuilds: Awaited<ReturnType<typeof timedBuild>>[] = [];
    for (let round = 0; round < rebuildRounds; round++) {
      await changeOne(join(scratch.path, "project", "index"), round);
      const again = await timedBuild(project, syntheticSite, cache);
      const { read } = again.report.packageData;
      const { rendered } = again.report.packagePages;
      if (read !== 1 || rendered !== 1)
        throw new Error(`the rebuild read ${read} packages and rendered ${rendered} pages, not 1`);
      rebuilds.push(again);
    }
    const rebuild = {
      seconds: median(rebuilds.map((r) => r.seconds)),
      rounds: rebuilds.map((r) => r.seconds),
      cpuSeconds: median(rebuilds.map((r) => r.cpuSeconds)),
      peakRssBytes: Math.max(...rebuilds.map((r) => r.peakRssBytes)),
      packagesRead: 1,
      pagesRendered: 1,
    };
    await expectPackages(syntheticSite, SYNTHETIC.packages);
    const view = await measureCatalogView(syntheticSite);
    const dev = await measureDev(join(scratch.path, "project"), join(scratch.path, "tmp"), 3);
    const fixture = await measureFixture(scratch.path);
    const copy = await copyOfSite(syntheticSite, join(scratch.path, "synthetic-site-copy"));
    const catalogView = fixture.pages.find((p) => p.kind === "catalog view");
    const secondsOk = synthetic.seconds < catalogGoals.seconds;
    const rssOk = synthetic.peakRssBytes < catalogGoals.peakRssBytes;
    const rebuildOk = rebuild.seconds < catalogGoals.rebuildSeconds;
    const devOk = dev.seconds.length > 0 && median(dev.seconds) < catalogGoals.devRebuildSeconds;
    const jsOk = catalogView !== undefined && catalogView.jsBytes <= catalogGoals.catalogJsBytes;
    const viewOk =
      view.htmlGzipBytes < catalogGoals.firstPageGzipBytes &&
      view.jsBytes <= catalogGoals.catalogJsBytes &&
      view.keystrokeMs.length > 0 &&
      Math.max(...view.keystrokeMs) < catalogGoals.keystrokeMs;
    return {
      view,
      viewOk,
      synthetic: { ...synthetic, copy },
      rebuild,
      dev,
      fixture,
      secondsOk,
      rssOk,
      rebuildOk,
      devOk,
      jsOk,
      ok: secondsOk && rssOk && rebuildOk && devOk && jsOk && viewOk,
    };
  } finally {
    await scratch.remove();
  }
}

const met = (ok: boolean) => (ok ? "goal met" : "NOT MET");
const kib = (bytes: number) => `${(bytes / KiB).toFixed(1)} KiB`;
const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;
const gib = (bytes: number) => `${(bytes / GiB).toFixed(2)} GiB`;

export function formatCatalogBench(result: CatalogBenchResult): string {
  const { synthetic, rebuild, dev, fixture } = result;
  const devLine =
    dev.seconds.length === 0
      ? `  dev: no rebuild measured ${met(false)}`
      : `  pkg-catalog dev, from writing one changed package to the rebuilt line: median ${median(dev.seconds).toFixed(2)} s of ${dev.seconds.map((s) => s.toFixed(2)).join(", ")} s (goal < ${catalogGoals.devRebuildSeconds} s) ${met(result.devOk)}`;
  const lines = [
    `pkg-catalog build of ${synthetic.packages} synthetic packages with ${synthetic.readmeBytes / 1000} KB READMEs (whole process)`,
    `  wall ${synthetic.seconds.toFixed(2)} s (goal < ${catalogGoals.seconds} s; reference ${catalogReference.seconds} s) ${met(result.secondsOk)}; CPU (user+sys, every thread) ${synthetic.cpuSeconds.toFixed(2)} s`,
    `  of which kernel (sys) ${synthetic.systemSeconds.toFixed(2)} s; ${
      synthetic.inMemory === undefined
        ? "no tmpfs to measure the build without the disk"
        : `the same build onto a tmpfs (the disk taken out): wall ${synthetic.inMemory.seconds.toFixed(2)} s, CPU ${synthetic.inMemory.cpuSeconds.toFixed(2)} s`
    }`,
    `  the built site copied by cp -a beside itself on the same disk, no build: wall ${synthetic.copy.seconds.toFixed(2)} s, of which kernel ${synthetic.copy.systemSeconds.toFixed(2)} s (what this filesystem charges for the site's tree alone)`,
    `  peak RSS ${mib(synthetic.peakRssBytes)} (GNU time %M; goal < ${mib(catalogGoals.peakRssBytes)}; reference ${gib(catalogReference.peakRssBytes)}) ${met(result.rssOk)}`,
    `  rebuild onto its output after one package changed (${rebuild.rounds.length} rounds, another package each; the full builds' writeback flushed first): median ${rebuild.seconds.toFixed(2)} s of ${rebuild.rounds.map((s) => s.toFixed(2)).join(", ")} s (CPU median ${rebuild.cpuSeconds.toFixed(2)} s), peak RSS ${mib(rebuild.peakRssBytes)}, each read ${rebuild.packagesRead} package and rendered ${rebuild.pagesRendered} page (goal < ${catalogGoals.rebuildSeconds} s) ${met(result.rebuildOk)}`,
    devLine,
    `  catalog view in Chromium: first page gzipped ${kib(result.view.htmlGzipBytes)} (goal < ${kib(catalogGoals.firstPageGzipBytes)}), ` +
      `JavaScript before interaction ${kib(result.view.jsBytes)} (goal <= ${kib(catalogGoals.catalogJsBytes)}), ` +
      `first search with the index loaded ${result.view.firstSearchMs} ms, then per keystroke over all ${synthetic.packages} packages ` +
      `${result.view.keystrokeMs.map((ms) => ms.toFixed(1)).join(", ")} ms (goal < ${catalogGoals.keystrokeMs} ms each) ${met(result.viewOk)}`,
    `pkg-catalog build of the real fixture (${fixture.packages} packages): ${fixture.seconds.toFixed(2)} s`,
  ];
  for (const page of fixture.pages) {
    const goal =
      page.kind === "catalog view"
        ? ` (goal <= ${kib(catalogGoals.catalogJsBytes)}; reference ${kib(catalogReference.catalogJsBytes)}) ${met(result.jsOk)}`
        : "";
    lines.push(
      `  ${page.kind} ${page.path}: HTML ${kib(page.htmlBytes)}, gzipped ${kib(page.htmlGzipBytes)}; ` +
        `JavaScript before interaction ${kib(page.jsBytes)} in ${page.scripts} script(s), gzipped ${kib(page.jsGzipBytes)}${goal}`,
    );
  }
  if (!fixture.pages.some((p) => p.kind === "catalog view"))
    lines.push(`  catalog view not built ${met(false)}`);
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runCatalogBench();
  process.stdout.write(`${formatCatalogBench(result)}\n`);
}
