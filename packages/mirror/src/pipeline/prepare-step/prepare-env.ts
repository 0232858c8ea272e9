/**
 * `pipeline prepare` of a Python source (`pylock`, `pypi`): per plan entry, the lock (the committed
 * one, or the entry's derived `pylock`), the interpreter's digest, and per `wheels` key the
 * environment package (`buildEnvPlatforms`), placed under stable names (one layer file per wheel,
 * the composed metadata) before the version's `prepared-<tag>.json`.
 */
import { constants } from "node:fs";
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { ExitCode, PkgError, writeAtomically } from "@pkg/common";
import { openRegistry, parseManifestDocument, parseReference } from "@pkg/oci";
import { parsePlatformKey, platformSlug, writeMetadataFile } from "@pkg/package";
import { type BundleResult, type CreateBundleOptions, createBundlePool } from "@pkg/package/bundle";
import pLimit from "p-limit";
import { createDownloader } from "../../build/fetch/downloader.js";
import { buildEnvPlatforms, type EnvLayer } from "../../build/wheel/build-env.js";
import type { RunnableSpec } from "../../plan/plan-run.js";
import { normalizeName } from "../../python/name.js";
import { type Pylock, parsePylock } from "../../python/pylock.js";
import { defaultConcurrency } from "../../spec/concurrency.js";
import { DEFAULT_VERIFY } from "../../spec/verify.js";
import { bundleLayerFileName, bundleMetadataFileName } from "../documents/artifacts.js";
import type { PlanVersion } from "../documents/plan-document.js";
import type { PreparedBundle, PreparedLayer, PreparedVersion } from "../documents/prepared-version.js";
import { writePreparedManifest } from "./artifacts-writer.js";
import type { PrepareStepOptions } from "./prepare-versions.js";

export interface EnvPrepareOptions extends PrepareStepOptions {
  /** The repository root a `pylock` source's `path` is relative to. */
  repoRoot: string;
  /** The directory entries' `pylock` paths are relative to (the plan file's; default the working directory). */
  planDir?: string;
  env: NodeJS.ProcessEnv;
}

export function isEnvSpec(spec: RunnableSpec): boolean {
  return spec.source.type === "pylock" || spec.source.type === "pypi";
}

async function readLock(path: string, shown: string): Promise<Pylock> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new PkgError(ExitCode.IoError, `lock ${shown}: ${(error as Error).message}`);
  }
  return parsePylock(text, shown);
}

/** The entry's lock: the committed one of a `pylock` source, the derived one a `pypi` entry names. */
function lockPathOf(entry: PlanVersion, spec: RunnableSpec, options: EnvPrepareOptions): string {
  if (spec.source.type === "pylock") return resolve(options.repoRoot, spec.source.path);
  if (entry.pylock === undefined) {
    throw new PkgError(
      ExitCode.Data,
      `${entry.version}: the plan entry names no derived lock (pylock); plan again`,
    );
  }
  return resolve(options.planDir ?? ".", entry.pylock);
}

/** What `python.interpreter_package` resolved to. */
export interface ResolvedInterpreter {
  /** Its digest: its own pin, else what its tag resolves to. */
  digest: string;
  /** `os/arch` of each entry when it is an image index; undefined for a single manifest. */
  platforms?: string[];
}

/**
 * The digest `python.interpreter_package` names (its own when pinned, else what its tag resolves
 * to; an image index: the installing host's entry is picked when it is materialised) and the
 * platforms its index offers. A tag or digest the registry does not have is 65.
 */
export async function resolveInterpreter(
  reference: string,
  env: NodeJS.ProcessEnv,
): Promise<ResolvedInterpreter> {
  const parsed = parseReference(reference);
  const target = openRegistry({ host: parsed.registry, repository: parsed.repository }, { env });
  const found = await target.fetchManifest(parsed.digest ?? (parsed.tag as string));
  if (found === undefined) {
    throw new PkgError(ExitCode.Data, `python.interpreter_package ${reference}: not in its registry`);
  }
  const document = parseManifestDocument(found.bytes, reference);
  const digest = parsed.digest ?? found.descriptor.digest;
  if (document.kind !== "index") return { digest };
  const platforms = document.index.manifests.flatMap((m) =>
    m.platform === undefined ? [] : [`${m.platform.os}/${m.platform.architecture}`],
  );
  return { digest, platforms };
}

/** The `wheels` keys whose os/arch the interpreter's index has no entry for, with the reason. */
export function interpreterGaps(
  keys: readonly string[],
  interpreter: ResolvedInterpreter,
  reference: string,
): Array<{ platform: string; message: string }> {
  const offered = interpreter.platforms;
  if (offered === undefined) return [];
  return keys.flatMap((platform) => {
    const key = parsePlatformKey(platform, ExitCode.Data);
    const base = `${key.os}/${key.architecture}`;
    if (offered.includes(base)) return [];
    const message = `python.interpreter_package ${reference} has no ${base} entry (it has ${offered.join(", ") || "none"})`;
    return [{ platform, message }];
  });
}

async function placeLayers(
  dir: string,
  tag: string,
  platform: string,
  layers: readonly EnvLayer[],
  metadata: Parameters<typeof writeMetadataFile>[1],
): Promise<PreparedBundle> {
  const slug = platformSlug(parsePlatformKey(platform));
  const placed: PreparedLayer[] = [];
  for (const [i, layer] of layers.entries()) {
    const file = bundleLayerFileName(tag, slug, i + 1);
    await writeAtomically(join(dir, file), "layer", (temp) =>
      copyFile(layer.layer, temp, constants.COPYFILE_FICLONE),
    );
    placed.push({
      file,
      digest: layer.digest,
      size: layer.size,
      wheel: { name: layer.wheel, package: layer.package, url: layer.url, sha256: layer.wheelSha256 },
    });
  }
  const metadataFile = bundleMetadataFileName(tag, slug);
  await writeAtomically(join(dir, metadataFile), "metadata", (temp) => writeMetadataFile(temp, metadata));
  const first = placed[0] as PreparedLayer;
  return {
    platform,
    platform_slug: slug,
    bundle: first.file,
    metadata: metadataFile,
    digest: first.digest,
    size: first.size,
    layers: placed,
  };
}

/** Prepares each entry in turn; a failure before the keys (lock, interpreter) fails every key of that entry. */
export async function prepareEnvVersions(
  entries: readonly PlanVersion[],
  options: EnvPrepareOptions,
): Promise<PreparedVersion[]> {
  const { spec, log } = options;
  if (spec.python === undefined || spec.wheels === undefined) {
    throw new PkgError(ExitCode.Data, `a ${spec.source.type} source needs python and wheels`);
  }
  const python = spec.python;
  const app = normalizeName(
    spec.source.type === "pylock" || spec.source.type === "pypi"
      ? (spec.source.package ?? spec.name)
      : spec.name,
  );
  const concurrency = spec.concurrency ?? defaultConcurrency();
  const downloader = createDownloader({
    http: options.http,
    verify: spec.verify ?? DEFAULT_VERIFY,
    sourceType: spec.source.type,
    maxDownloads: concurrency.max_downloads,
    log,
  });
  // at most max_bundles wheels unpacked and repacked at once, zstd on worker threads
  const pool = createBundlePool(concurrency.max_bundles);
  const repacks = pLimit(concurrency.max_bundles);
  const repackSlot = <T>(work: () => Promise<T>) => repacks(work);
  const create = (bundle: CreateBundleOptions) => pool.create(bundle, options.signal);
  try {
    return await prepareEach(entries, options, { python, app, downloader, repackSlot, create });
  } finally {
    await pool.close();
  }
}

interface EnvRun {
  python: NonNullable<RunnableSpec["python"]>;
  app: string;
  downloader: ReturnType<typeof createDownloader>;
  repackSlot: <T>(work: () => Promise<T>) => Promise<T>;
  create: (bundle: CreateBundleOptions) => Promise<BundleResult>;
}

async function prepareEach(
  entries: readonly PlanVersion[],
  options: EnvPrepareOptions,
  run: EnvRun,
): Promise<PreparedVersion[]> {
  const { spec, log } = options;
  const { python, app, downloader } = run;
  const wheels = spec.wheels as NonNullable<RunnableSpec["wheels"]>;
  await mkdir(options.bundlesDir, { recursive: true });
  const prepared: PreparedVersion[] = [];
  log.tasks.expect(entries.length);
  for (const entry of entries) {
    if (options.signal.aborted) break;
    // the version's line below says how it ended
    const task = log.tasks.start(`${entry.version} environment packages`, { quiet: true });
    const bundles: PreparedBundle[] = [];
    const failed = (entry.refused ?? []).map(({ platform, message }) => ({ platform, message }));
    try {
      const lockPath = lockPathOf(entry, spec, options);
      const lock = await readLock(lockPath, lockPath);
      task.state("resolving the interpreter");
      const interpreter = await resolveInterpreter(python.interpreter_package, options.env);
      const gaps = interpreterGaps(entry.platforms, interpreter, python.interpreter_package);
      failed.push(...gaps);
      const keys = entry.platforms.filter((p) => !gaps.some((gap) => gap.platform === p));
      task.state(`fetching and repacking the wheels of ${keys.join(", ")}`);
      const outcomes = await buildEnvPlatforms(keys, {
        lock,
        app,
        appVersion: entry.source_version,
        python,
        wheels,
        interpreterDigest: interpreter.digest,
        repackSlot: run.repackSlot,
        create: run.create,
        workDir: join(resolve(options.workDir), spec.name, entry.source_version),
        downloader,
        log,
        signal: options.signal,
      });
      if (options.signal.aborted) {
        task.stopped();
        break;
      }
      for (const outcome of outcomes) {
        if (outcome.ok) {
          bundles.push(
            await placeLayers(
              options.bundlesDir,
              entry.version,
              outcome.platform,
              outcome.layers,
              outcome.metadata,
            ),
          );
        } else {
          failed.push({ platform: outcome.platform, message: outcome.error.message });
        }
      }
    } catch (error) {
      if (options.signal.aborted) {
        task.stopped();
        break;
      }
      const message = error instanceof Error ? error.message : String(error);
      log.warn(`${entry.version}: ${message}`);
      for (const platform of entry.platforms) {
        if (!failed.some((f) => f.platform === platform)) failed.push({ platform, message });
      }
    }
    if (failed.length > 0) task.failed(`${failed.length} failed`);
    else task.done();
    const version = { plan: entry, bundles, failed };
    const path = await writePreparedManifest(options.bundlesDir, version);
    log.info(
      `${entry.version}: ${bundles.length} environment package${bundles.length === 1 ? "" : "s"} prepared${failed.length > 0 ? `, ${failed.length} failed` : ""} (${path})`,
    );
    prepared.push({ schema_version: 1, ...version });
  }
  return prepared;
}
