import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { launchChromium, serveDirectory, tempDir } from "@pkg/testkit";
import {
  catalogBin,
  ocxIndexFixture,
  writeCatalogProject,
} from "../../packages/catalog/test/support/catalog-project.js";
import { gzipSize, scriptsBeforeInteraction } from "../../packages/catalog/test/support/page-weight.js";
import { writeSyntheticIndex } from "../../packages/catalog/test/support/synthetic-index.js";
import { repoRoot, timedRun } from "./measure.js";

const gnuTime = "/usr/bin/time";
const supportDir = join(repoRoot, "packages/catalog/test/support");
const KiB = 1024;
const GiB = 1024 ** 3;

/** The goals, and what the reference implementation needs for the same work. */
export const catalogGoals = { seconds: 60, peakRssBytes: GiB, catalogJsBytes: 8 * KiB };
export const catalogReference = { seconds: 406, peakRssBytes: 2.9 * GiB, catalogJsBytes: 11 * KiB };

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
  synthetic: { packages: number; readmeBytes: number; seconds: number; peakRssBytes: number };
  fixture: { packages: number; seconds: number; pages: PageFigures[] };
  secondsOk: boolean;
  rssOk: boolean;
  jsOk: boolean;
  ok: boolean;
}

/** `pkg-catalog build` as one child process under GNU time (`%M`: the child's max RSS in KiB). */
async function timedBuild(config: string, out: string): Promise<{ seconds: number; peakRssBytes: number }> {
  if (!existsSync(gnuTime)) throw new Error(`${gnuTime} is missing (apt-get install time)`);
  const rssFile = `${out}.max-rss-kib`;
  const { seconds } = await timedRun(
    gnuTime,
    ["-f", "%M", "-o", rssFile, process.execPath, catalogBin].concat(["build", config, "--out", out]),
  );
  const peakRssBytes = Number((await readFile(rssFile, "utf8")).trim()) * KiB;
  await rm(rssFile, { force: true });
  return { seconds, peakRssBytes };
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
  const { seconds } = await timedBuild(config, out);
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
    const syntheticSite = join(scratch.path, "synthetic-site");
    const synthetic = { ...SYNTHETIC, ...(await timedBuild(config, syntheticSite)) };
    await expectPackages(syntheticSite, SYNTHETIC.packages);
    await rm(syntheticSite, { recursive: true, force: true });
    const fixture = await measureFixture(scratch.path);
    const catalogView = fixture.pages.find((p) => p.kind === "catalog view");
    const secondsOk = synthetic.seconds < catalogGoals.seconds;
    const rssOk = synthetic.peakRssBytes < catalogGoals.peakRssBytes;
    const jsOk = catalogView !== undefined && catalogView.jsBytes <= catalogGoals.catalogJsBytes;
    return { synthetic, fixture, secondsOk, rssOk, jsOk, ok: secondsOk && rssOk && jsOk };
  } finally {
    await scratch.remove();
  }
}

const met = (ok: boolean) => (ok ? "goal met" : "NOT MET");
const kib = (bytes: number) => `${(bytes / KiB).toFixed(1)} KiB`;
const gib = (bytes: number) => `${(bytes / GiB).toFixed(2)} GiB`;

export function formatCatalogBench(result: CatalogBenchResult): string {
  const { synthetic, fixture } = result;
  const lines = [
    `pkg-catalog build of ${synthetic.packages} synthetic packages with ${synthetic.readmeBytes / 1000} KB READMEs (whole process)`,
    `  wall ${synthetic.seconds.toFixed(2)} s (goal < ${catalogGoals.seconds} s; reference ${catalogReference.seconds} s) ${met(result.secondsOk)}`,
    `  peak RSS ${gib(synthetic.peakRssBytes)} (GNU time %M; goal < ${gib(catalogGoals.peakRssBytes)}; reference ${gib(catalogReference.peakRssBytes)}) ${met(result.rssOk)}`,
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
