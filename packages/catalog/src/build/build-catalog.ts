import { rmSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { loadCatalogConfig } from "../config/load.js";
import type { CatalogConfig, SourceEntry } from "../config/types.js";
import { isSafePackagePath } from "../site/model/routes.js";
import { assembleSiteModel, indexContextOf, packageViewsOf } from "../site/model/site-model.js";
import type { PackageSummary } from "../site/model/types.js";
import { readSources } from "../sources/read-sources.js";
import type { LoadedIndex, LoadedPackage } from "../sources/types.js";
import { defaultCacheDir } from "../sources/url-cache.js";
import { checkOutputDir, withAtomicOutput } from "./atomic-output.js";
import { BuildState } from "./build-state.js";
import { chromeOf } from "./chrome-of.js";
import { checkClientAssets } from "./client-assets.js";
import {
  finishInterruptedCommit,
  finishJournal,
  journalFile,
  pendingMemoFile,
  writeJournal,
} from "./commit-journal.js";
import { checkIdentities } from "./identity-check.js";
import { IndexMirror } from "./index-mirror.js";
import { IndexWriter } from "./index-writer.js";
import {
  type BuildMemo,
  dropChangedFiles,
  dropFiles,
  type MemoPackage,
  memoFile,
  outputsOf,
  removeMemo,
} from "./memo.js";
import { intactOutputs, loadMemo, saveMemo } from "./memo-file.js";
import { ownPool, PackagePages, type PagePoolSource, type PageSource, viewHash } from "./package-pages.js";
import { assertReplaceable } from "./previous-output.js";
import { complete, filesByPackage, readmePath, release, rootDigest, type Viewed } from "./read-packages.js";
import { rendererHash } from "./renderer-hash.js";
import type { BuildReport } from "./report.js";
import { siblingDir, sweepStaleSiblings } from "./siblings.js";
import { SiteWriter } from "./site-writer.js";
import { checkSiteRoutes, writeSite } from "./write-site.js";

export { BuildState };

export interface BuildOptions {
  configPath: string;
  outDir: string;
  /** The cache of url sources, and of build memos (default `$XDG_CACHE_HOME/pkg-catalog`). */
  cacheDir?: string;
  warn?: (line: string) => void;
  /** The build's phases ("reading 2 sources"), for progress. */
  log?: (line: string) => void;
  /** What the user should know that is not a warning (an earlier build's update finished first). */
  info?: (line: string) => void;
  /** Told how many package pages are done (rendered or kept) of those so far added. */
  onPages?: (done: number, added: number) => void;
  /** Memos kept in memory (dev) instead of the cache directory. */
  state?: BuildState;
}

/** Every directory the build reads from, which the output must never replace. */
function inputDirs(config: CatalogConfig, cacheDir: string | undefined): string[] {
  const dirs = [config.dir];
  for (const source of config.sources) if (source.kind === "path") dirs.push(source.path);
  for (const path of [config.docs, config.publicDir, config.css && dirname(config.css), cacheDir]) {
    if (path !== undefined && path !== "") dirs.push(path);
  }
  return dirs;
}

/** The real path of an existing output directory (not a link to one). */
async function existingDir(path: string): Promise<string | undefined> {
  try {
    return (await lstat(path)).isDirectory() ? await realpath(path) : undefined;
  } catch {
    return undefined;
  }
}

interface BuildRun {
  config: CatalogConfig;
  /** The previous output's memo describes it as it is (kept in memory by this process). */
  trusted: boolean;
  pool: PagePoolSource;
  renderer: string;
  previous: BuildMemo | undefined;
  writer: SiteWriter;
  mirror: IndexMirror;
  cacheDir: string | undefined;
  warn: (line: string) => void;
  log: (line: string) => void;
  onPages: ((done: number, added: number) => void) | undefined;
}

/** Reads the sources (streaming their files into the site), views and writes everything. */
async function runBuild(run: BuildRun) {
  const { config, previous, writer } = run;
  const contexts = new Map<number, string>();
  const contextOf = (source: SourceEntry) => {
    let context = contexts.get(source.index);
    if (context === undefined) {
      context = JSON.stringify(indexContextOf(config, { label: "", sourceIndex: source.index }));
      contexts.set(source.index, context);
    }
    return context;
  };
  const reusedBySource = new Map<number, Map<string, MemoPackage>>();
  const reuseHook = (source: SourceEntry) => {
    const known = previous?.sources.get(source.index);
    if (previous === undefined || known === undefined) return undefined;
    const root = source.root === true;
    const reused = new Map<string, MemoPackage>();
    reusedBySource.set(source.index, reused);
    return (key: string, digest: string): string | undefined => {
      const memo = known.get(key);
      if (memo === undefined || memo.digest !== digest || memo.context !== contextOf(source))
        return undefined;
      // a memo kept in memory describes its output as it is; one from disk may name files since gone
      if (!run.trusted && intactOutputs(previous.files, memo, root) === undefined) {
        for (const [path, fileKey] of outputsOf(memo, root))
          if (previous.files.get(path)?.key !== fileKey) return undefined;
      }
      reused.set(key, memo);
      return memo.label;
    };
  };
  const pages = new PackagePages(writer, chromeOf(config), run.renderer, run.pool);
  pages.onProgress = run.onPages;
  try {
    return await viewAndWrite(run, pages, contextOf, reusedBySource, reuseHook);
  } finally {
    await pages.close();
  }
}

async function viewAndWrite(
  run: BuildRun,
  pages: PackagePages,
  contextOf: (source: SourceEntry) => string,
  reusedBySource: Map<number, Map<string, MemoPackage>>,
  reuseHook: (source: SourceEntry) => ((key: string, digest: string) => string | undefined) | undefined,
) {
  const { config, mirror, warn } = run;
  const readmeOf = (sourceIndex: number, label: string, path: string | undefined, read: boolean) =>
    path === undefined
      ? {}
      : { readme: { path, locate: () => mirror.locate(sourceIndex, label, path, read) } };
  // pages render as their packages are read, unless they need every route (a successor's)
  const early = new Map<number, Map<string, Viewed>>();
  const onPackage = (source: SourceEntry) => {
    const viewed = new Map<string, Viewed>();
    early.set(source.index, viewed);
    let settled = source.label;
    return (pkg: LoadedPackage, label: string) => {
      settled ??= label;
      // another label fails the build once the source is read
      if (label !== settled || !isSafePackagePath(pkg.path)) return;
      const has = (path: string) => mirror.readPaths(source.index).has(path);
      const [view] = packageViewsOf(config, { label, sourceIndex: source.index }, [pkg], has, () => {});
      if (view === undefined) return;
      const readme = readmePath(pkg, has);
      const hash = viewHash(view);
      viewed.set(pkg.path, {
        view,
        viewHash: hash,
        complete: complete(pkg, has),
        ...(readme === undefined ? {} : { readme }),
      });
      // the view holds all the build needs of the package: what it was viewed from can go
      release(pkg);
      if (view.supersededBy === undefined)
        pages.add(
          { pkg: view, view: () => view, viewHash: hash, ...readmeOf(source.index, label, readme, true) },
          undefined,
        );
    };
  };
  run.log(`reading ${config.sources.length} ${config.sources.length === 1 ? "source" : "sources"}`);
  const indexes: LoadedIndex[] = await readSources(config, {
    warn,
    ...(run.cacheDir === undefined ? {} : { cacheDir: run.cacheDir }),
    walkHooks: (source) => {
      const reuse = reuseHook(source);
      return {
        onFiles: mirror.onFiles(source.index, source.label),
        onPackage: onPackage(source),
        ...(reuse === undefined ? {} : { reuse }),
      };
    },
  });

  const nextSources = new Map<number, Map<string, MemoPackage>>();
  const deferred: PageSource[] = [];
  const viewed = indexes.map((index) => {
    const source = config.sources.find((s) => s.index === index.sourceIndex);
    const context = source === undefined ? "" : contextOf(source);
    const readPaths = mirror.readPaths(index.sourceIndex);
    const has = (path: string) => readPaths.has(path);
    const earlyViewed = early.get(index.sourceIndex) ?? new Map<string, Viewed>();
    const late = index.packages.filter((pkg) => !earlyViewed.has(pkg.path));
    const lateViewed = new Map<string, Viewed>();
    for (const view of packageViewsOf(config, index, late, has, warn)) {
      const pkg = late.find((p) => p.path === view.path) as LoadedPackage;
      const readme = readmePath(pkg, has);
      lateViewed.set(view.path, {
        view,
        viewHash: viewHash(view),
        complete: complete(pkg, has),
        ...(readme === undefined ? {} : { readme }),
      });
    }
    const views: PackageSummary[] = [];
    const packages = new Map<string, MemoPackage>();
    nextSources.set(index.sourceIndex, packages);
    const streamedByKey = filesByPackage(mirror.streamedFiles(index.sourceIndex));
    for (const pkg of index.packages) {
      const isEarly = earlyViewed.has(pkg.path);
      const viewedPkg = earlyViewed.get(pkg.path) ?? lateViewed.get(pkg.path);
      if (viewedPkg === undefined) continue;
      const { view, readme } = viewedPkg;
      views.push(view);
      if (!isEarly || view.supersededBy !== undefined)
        deferred.push({
          pkg: view,
          view: () => view,
          viewHash: viewedPkg.viewHash,
          ...readmeOf(index.sourceIndex, index.label, readme, true),
        });
      if (!viewedPkg.complete) continue;
      const digest = rootDigest(streamedByKey.get(pkg.path), `p/${pkg.path}.json`);
      if (digest === undefined) continue;
      packages.set(pkg.path, {
        digest,
        label: index.label,
        context,
        summary: view,
        view: () => view,
        viewHash: viewedPkg.viewHash,
        files: streamedByKey.get(pkg.path) ?? [],
        ...(readme === undefined ? {} : { readme }),
      });
    }
    for (const [key, memo] of reusedBySource.get(index.sourceIndex) ?? []) {
      if (memo.label !== index.label)
        throw new PkgError(ExitCode.Failed, `internal: reused ${key} under another label`);
      packages.set(key, memo);
      views.push(memo.summary);
      deferred.push({
        pkg: memo.summary,
        view: memo.view,
        viewHash: memo.viewHash,
        known: true,
        ...readmeOf(index.sourceIndex, index.label, memo.readme, false),
      });
    }
    return { label: index.label, sourceIndex: index.sourceIndex, packages: views };
  });
  run.log(`read ${indexes.reduce((n, index) => n + index.packages.length, 0)} packages`);
  const model = assembleSiteModel(config, viewed);
  await checkSiteRoutes(config, model);

  const fileCounts: number[] = [];
  for (const index of indexes) {
    const kept = reusedBySource.get(index.sourceIndex)?.values() ?? [];
    const root = config.sources.find((s) => s.index === index.sourceIndex)?.root === true;
    fileCounts.push(await mirror.place(index.sourceIndex, index.label, root, kept, warn));
  }
  run.log("mirrored the index files");
  const written = await writeSite(run.writer, { config, model, pages, deferred, warn, log: run.log });
  const packagesRead = indexes.reduce((n, index) => n + index.packages.length, 0);
  const packagesReused = [...reusedBySource.values()].reduce((n, reused) => n + reused.size, 0);
  return { model, written, fileCounts, nextSources, packagesRead, packagesReused };
}

/**
 * Loads the config, reads every source and writes the site into `outDir`. A new output (or one
 * without a usable memo) is built in a sibling temporary directory and swapped in; onto the output
 * of an earlier build, only what changed is written, into a sibling stage, and moved into place at
 * the end. Either way a failed build leaves the previous output as it was and no temporary
 * directory behind.
 */
export async function buildCatalog(options: BuildOptions): Promise<BuildReport> {
  try {
    return await build(options);
  } catch (error) {
    await options.state?.dropWorkers();
    throw error;
  }
}

async function build(options: BuildOptions): Promise<BuildReport> {
  const started = performance.now();
  const startedAt = Date.now();
  const warnings: string[] = [];
  const warn = (line: string) => {
    warnings.push(line);
    options.warn?.(line);
  };
  const log = options.log ?? (() => {});
  const outDir = resolve(options.outDir);
  const config = await loadCatalogConfig(options.configPath);
  checkOutputDir(outDir, inputDirs(config, options.cacheDir));
  // an output this process built (dev) is known to be a site; anything else must show it is one
  const known = options.state?.memos.has(outDir) === true;
  if (!known) await assertReplaceable(outDir, options.outDir);
  const memoDir = options.cacheDir ?? defaultCacheDir();

  const existing = await existingDir(outDir);
  // an update in place that a stopped build left midway is finished first; then what stopped
  // builds left beside the output goes
  if (
    existing !== undefined &&
    options.state === undefined &&
    finishInterruptedCommit(memoFile(memoDir, existing), existing)
  )
    (options.info ?? log)(`finished the update of ${outDir} that an earlier build left midway`);
  // the files the memo records are checked from here on, beside the rest
  const identities =
    existing !== undefined && options.state === undefined
      ? checkIdentities(memoFile(memoDir, existing), existing)
      : undefined;
  sweepStaleSiblings(outDir, startedAt);
  await checkClientAssets();
  const renderer = await rendererHash();
  let previous: BuildMemo | undefined;
  let linkFrom: BuildMemo | undefined;
  if (options.state !== undefined) {
    const { memos, last } = options.state;
    const own = existing === undefined ? undefined : memos.get(existing);
    const other = last === undefined || last === existing ? undefined : memos.get(last);
    if (own?.renderer === renderer) previous = own;
    else if (other?.renderer === renderer) linkFrom = other;
  } else if (existing !== undefined && identities !== undefined) {
    previous = await loadMemo(memoFile(memoDir, existing), existing, renderer);
    if (previous === undefined) identities.stop();
    else {
      const changed = await identities.help(previous);
      const dropped = changed === undefined ? dropChangedFiles(previous) : dropFiles(previous, changed);
      // an output mostly changed since (restored from a copy, say) is built anew and swapped in
      if (dropped > previous.files.size / 2) previous = undefined;
    }
  }
  const base = {
    config,
    pool: options.state?.pages ?? ownPool(),
    trusted: options.state !== undefined,
    renderer,
    previous: previous ?? linkFrom,
    cacheDir: options.cacheDir,
    warn,
    log,
    onPages: options.onPages,
  };
  let result: Awaited<ReturnType<typeof runBuild>>;
  let writer: SiteWriter;
  let removed = 0;
  /** The memo was saved with the update it describes (an update in place from the command line). */
  let saved = false;
  if (previous !== undefined && existing !== undefined) {
    const stage = siblingDir(outDir, "stage");
    writer = new SiteWriter(existing, { previous: { files: previous.files, stage } });
    const mirror = new IndexMirror(writer, stage);
    /** Once the journal is written, a failed commit leaves the stage to the next build. */
    let journaled = false;
    let committed = false;
    try {
      result = await runBuild({ ...base, writer, mirror });
      const plan = writer.planCommit();
      if (options.state === undefined) {
        const memo = memoFile(memoDir, existing);
        const next: BuildMemo = { out: existing, renderer, files: writer.files, sources: result.nextSources };
        saved = await saveMemo(pendingMemoFile(memo), next).then(
          () => true,
          (error: unknown) => {
            warn(
              `the build memo could not be written (the next build writes everything again): ${String(error)}`,
            );
            return false;
          },
        );
        // from here the output changes: the memo of the output as it was goes, and the journal tells
        // the next build to finish the update (or, without a pending memo, to build anew)
        await removeMemo(memo);
        if (saved) {
          writeJournal(journalFile(memo), { format: 1, out: existing, stage, plan });
          journaled = true;
        }
        removed = writer.applyCommit(plan);
        if (saved) finishJournal(memo);
      } else {
        options.state.memos.delete(existing);
        removed = writer.applyCommit(plan);
      }
      committed = true;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (error instanceof PkgError || !code) throw error;
      const next = journaled ? " (the next build finishes the update)" : "";
      throw new PkgError(ExitCode.IoError, `cannot write the site into ${outDir}: ${code}${next}`, {
        cause: error,
      });
    } finally {
      if (!journaled || committed) rmSync(stage, { recursive: true, force: true });
    }
  } else {
    ({ result, writer } = await withAtomicOutput(outDir, async (temp) => {
      const tempWriter = new SiteWriter(
        temp,
        linkFrom === undefined ? {} : { linkFrom: { files: linkFrom.files, root: linkFrom.out } },
      );
      // a new site's index files are written by a thread of their own (dev links what it can from
      // its other build directory, here)
      const indexWriter = linkFrom === undefined ? new IndexWriter() : undefined;
      const mirror = new IndexMirror(tempWriter, undefined, indexWriter);
      try {
        return { result: await runBuild({ ...base, writer: tempWriter, mirror }), writer: tempWriter };
      } finally {
        await indexWriter?.close();
      }
    }));
  }

  const out = await realpath(outDir);
  const memo: BuildMemo = { out, renderer, files: writer.files, sources: result.nextSources };
  if (options.state !== undefined) {
    options.state.memos.set(out, memo);
    options.state.last = out;
  } else if (!saved)
    await saveMemo(memoFile(memoDir, out), memo).catch((error: unknown) => {
      warn(`the build memo could not be written (the next build writes everything again): ${String(error)}`);
    });
  const { model, written } = result;
  return {
    outDir,
    indexes: model.indexes.map((index, i) => ({
      label: index.label,
      packages: index.packages.length,
      files: result.fileCounts[i] ?? 0,
    })),
    packages: model.indexes.reduce((n, index) => n + index.packages.length, 0),
    pages: written.pages,
    files: writer.fileCount,
    packagePages: written.packagePages,
    packageData: { read: result.packagesRead, reused: result.packagesReused },
    fileChanges: { written: writer.counts.written, kept: writer.counts.kept, removed },
    warnings,
    durationMs: Math.round(performance.now() - started),
  };
}
