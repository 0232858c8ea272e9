/**
 * The environment package of each `wheels` key of one Python version, from its lock: the key's
 * wheels selected (`selectWheels`), each downloaded once for every key through the run's
 * downloader and checked against the lock's hash (streamed), its ABI checked, repacked once into
 * its layer, the layers checked for overlap, and the metadata composed. A key that fails concerns
 * that key only.
 */
import { join } from "node:path";
import { describeError, ExitCode, type Logger, PkgError } from "@pkg/common";
import type { Metadata } from "@pkg/package";
import pLimit from "p-limit";
import { composeEnvMetadata } from "../../python/compose.js";
import type { LockedFile, LockedPackage, Pylock } from "../../python/pylock.js";
import { checkNoOverlap } from "../../python/wheel-layout.js";
import { checkWheelAbi, selectWheels } from "../../python/wheel-select.js";
import type { Python } from "../../spec/python.js";
import type { Wheels } from "../../spec/wheels.js";
import type { Downloader } from "../fetch/downloader.js";
import { fileDigests } from "../fetch/file-digest.js";
import { type RepackedWheel, type RepackOptions, repackWheel } from "./repack.js";
import { wheelTargetOf } from "./target.js";

export interface EnvBuildOptions {
  lock: Pylock;
  /** The app (spec `name` or `source.package`) and its locked version. */
  app: string;
  appVersion: string;
  python: Python;
  wheels: Wheels;
  /** Resolved `python.interpreter_package` digest (see `composeEnvMetadata`). */
  interpreterDigest: string;
  /** The version's work directory: `wheels/` downloads, `layers/` repacked layers. */
  workDir: string;
  downloader: Downloader;
  /**
   * Runs one wheel's unpacking and repacking: bounds how many run at once (`max_bundles`), so a
   * lock of a hundred wheels never has a hundred unpacked trees on disk. Default: one at a time.
   */
  repackSlot?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Writes a layer (a bundle pool's `create` puts zstd on a worker thread); default `createBundle`. */
  create?: RepackOptions["create"];
  log: Logger;
  signal?: AbortSignal;
}

/** One layer of a key's package, with the wheel it was repacked from. */
export interface EnvLayer extends RepackedWheel {
  package: string;
  /** Where the wheel was downloaded from. */
  url: string;
  /** Hex sha256 of the wheel (the shared wheel layer's tag). */
  wheelSha256: string;
}

export type EnvPlatformOutcome =
  | { ok: true; platform: string; layers: EnvLayer[]; metadata: Metadata }
  | { ok: false; platform: string; error: PkgError };

const HASHES = ["sha512", "sha384", "sha256"] as const;

/** The wheel file's digests against the lock's strongest hash; a mismatch or no usable hash is 65. */
async function checkLockedFile(wheel: LockedFile, path: string): Promise<string> {
  const algorithm = HASHES.find((a) => wheel.hashes[a] !== undefined);
  if (algorithm === undefined) {
    throw new PkgError(ExitCode.Data, `${wheel.name}: the lock records no sha256, sha384 or sha512 hash`);
  }
  const wanted = algorithm === "sha256" ? ["sha256" as const] : (["sha256", algorithm] as const);
  const digests = await fileDigests(path, [...wanted]);
  const actual = digests.get(algorithm);
  if (actual !== wheel.hashes[algorithm]) {
    throw new PkgError(
      ExitCode.Data,
      `${wheel.name}: ${algorithm} ${actual} does not match the lock's ${wheel.hashes[algorithm]}`,
    );
  }
  return digests.get("sha256") as string;
}

/**
 * Downloads a locked wheel into `dir` (once: a finished download is reused) and checks it against
 * the lock's strongest hash; its path, hex sha256 and url.
 */
export async function fetchLockedWheel(
  wheel: LockedFile,
  options: { downloader: Downloader; version: string; dir: string; signal?: AbortSignal },
): Promise<{ path: string; sha256: string; url: string }> {
  if (wheel.url === undefined) {
    throw new PkgError(ExitCode.Data, `${wheel.name}: the lock gives it no url to download it from`);
  }
  const downloaded = await options.downloader.download({
    version: options.version,
    asset: { name: wheel.name, url: wheel.url },
    dest: join(options.dir, wheel.name),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { path: downloaded.path, sha256: await checkLockedFile(wheel, downloaded.path), url: wheel.url };
}

function asPkgError(error: unknown): PkgError {
  if (error instanceof PkgError) return error;
  const { exitCode, line } = describeError(error);
  return new PkgError(exitCode, line, { cause: error });
}

export async function buildEnvPlatforms(
  platforms: readonly string[],
  buildOptions: EnvBuildOptions,
): Promise<EnvPlatformOutcome[]> {
  const options = { ...buildOptions, repackSlot: buildOptions.repackSlot ?? oneAtATime() };
  const layers = new Map<string, Promise<EnvLayer>>();
  const layerOf = (pkg: LockedPackage, wheel: LockedFile): Promise<EnvLayer> => {
    let pending = layers.get(wheel.name);
    if (pending === undefined) {
      pending = fetchAndRepack(pkg, wheel, options);
      layers.set(wheel.name, pending);
      pending.catch(() => undefined); // observed by every key that needs it
    }
    return pending;
  };
  const outcomes: EnvPlatformOutcome[] = [];
  for (const platform of platforms) {
    try {
      const target = wheelTargetOf(platform, options.wheels[platform], options.python);
      const selected = selectWheels(options.lock, target);
      for (const { wheel } of selected) checkWheelAbi(wheel.name, options.python.abi);
      const built = await Promise.all(selected.map(({ package: pkg, wheel }) => layerOf(pkg, wheel)));
      checkNoOverlap(built.map((layer) => ({ wheel: layer.wheel, paths: layer.paths })));
      const metadata = composeEnvMetadata({
        app: options.app,
        appVersion: options.appVersion,
        interpreter: options.python.interpreter_package,
        interpreterDigest: options.interpreterDigest,
        entrypoints: options.python.entrypoints,
        wheels: built,
      });
      outcomes.push({ ok: true, platform, layers: built, metadata });
    } catch (error) {
      const failure = asPkgError(error);
      options.log.warn(`${options.appVersion} ${platform}: ${failure.message}`);
      outcomes.push({ ok: false, platform, error: failure });
    }
  }
  return outcomes;
}

function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  const limit = pLimit(1);
  return (work) => limit(work);
}

async function fetchAndRepack(
  pkg: LockedPackage,
  wheel: LockedFile,
  options: EnvBuildOptions & Required<Pick<EnvBuildOptions, "repackSlot">>,
): Promise<EnvLayer> {
  const { path, sha256, url } = await fetchLockedWheel(wheel, {
    downloader: options.downloader,
    version: options.appVersion,
    dir: join(options.workDir, "wheels"),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const repacked = await options.repackSlot(() =>
    repackWheel({
      file: path,
      wheel: wheel.name,
      output: join(options.workDir, "layers", `${sha256}.tar.zst`),
      ...(options.create === undefined ? {} : { create: options.create }),
    }),
  );
  return { ...repacked, package: pkg.name, url, wheelSha256: sha256 };
}
