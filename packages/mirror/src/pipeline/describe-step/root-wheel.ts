/**
 * The description of a Python source without a CATALOG.md: its root wheel's core metadata
 * (Summary, Keywords, License) from the committed lock (`pylock`) or the newest lock already
 * derived under the locks directory (`pypi`; none there: nothing to describe).
 */
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ExitCode, type Logger, PkgError } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import { createDownloader } from "../../build/fetch/downloader.js";
import { readZipEntry } from "../../build/unpack/index.js";
import { fetchLockedWheel } from "../../build/wheel/build-env.js";
import type { RunnableSpec } from "../../plan/plan-run.js";
import { descriptionMarkdown, parseProjectDescription } from "../../python/core-metadata.js";
import { normalizeName } from "../../python/name.js";
import { compareVersionTexts } from "../../python/pep440.js";
import { type LockedPackage, parsePylock } from "../../python/pylock.js";
import { DEFAULT_VERIFY } from "../../spec/verify.js";

/** `<name>-<version>.dist-info/METADATA` at the top of a wheel. */
const CORE_METADATA = /^[^/]+\.dist-info\/METADATA$/;
/** The core metadata carries the long description: generous, but bounded. */
const MAX_CORE_METADATA_BYTES = 16 * 1024 * 1024;

export interface RootWheelOptions {
  /** A `pylock` source's `path` is relative to it. */
  repoRoot: string;
  /** Where `pipeline plan` wrote a `pypi` source's derived locks. */
  locksDir: string;
  http: HttpClient;
  log: Logger;
}

/** The app as a lock records it. */
async function lockedApp(file: string, app: string): Promise<LockedPackage | undefined> {
  const lock = parsePylock(await readFile(file, "utf8"), file);
  return lock.packages.find((p) => p.name === app);
}

/** The app of the newest derived lock under `dir` (`pylock.<app>-*.toml`), if any. */
async function newestDerived(
  dir: string,
  app: string,
): Promise<{ file: string; pkg: LockedPackage } | undefined> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let newest: { file: string; pkg: LockedPackage } | undefined;
  for (const name of names) {
    if (!name.startsWith(`pylock.${app}-`) || !name.endsWith(".toml")) continue;
    const file = join(dir, name);
    const pkg = await lockedApp(file, app);
    if (pkg?.version === undefined) continue;
    if (newest === undefined || compareVersionTexts(pkg.version, newest.pkg.version as string) > 0)
      newest = { file, pkg };
  }
  return newest;
}

/** The README generated from the root wheel, or undefined (a pypi source with no derived lock, or
 *  metadata that says nothing). */
export async function rootWheelReadme(
  spec: RunnableSpec,
  options: RootWheelOptions,
): Promise<string | undefined> {
  const { source } = spec;
  if (source.type !== "pylock" && source.type !== "pypi") return undefined;
  const app = normalizeName(source.package ?? spec.name);
  let found: { file: string; pkg: LockedPackage | undefined } | undefined;
  if (source.type === "pylock") {
    const file = resolve(options.repoRoot, source.path);
    found = { file, pkg: await lockedApp(file, app) };
  } else {
    found = await newestDerived(resolve(options.locksDir), app);
    if (found === undefined) {
      options.log.info(`no derived lock of ${app} under ${options.locksDir}: nothing to describe`);
      return undefined;
    }
  }
  const wheel = found.pkg?.wheels[0];
  if (found.pkg === undefined || wheel === undefined) {
    throw new PkgError(ExitCode.Data, `${found.file}: locks no wheel of ${app} to describe it from`);
  }
  const scratch = await mkdtemp(join(tmpdir(), "pkg-mirror-describe-"));
  try {
    const downloader = createDownloader({
      http: options.http,
      verify: DEFAULT_VERIFY,
      sourceType: source.type,
      maxDownloads: 1,
      log: options.log,
    });
    const fetched = await fetchLockedWheel(wheel, {
      downloader,
      version: found.pkg.version ?? "",
      dir: join(scratch, "wheels"),
    });
    // the core metadata only: nothing else of the wheel is unpacked
    const metadata = await readZipEntry(
      fetched.path,
      (name) => CORE_METADATA.test(name),
      MAX_CORE_METADATA_BYTES,
    );
    if (metadata === undefined) throw new PkgError(ExitCode.Data, `${wheel.name}: no .dist-info/METADATA`);
    options.log.info(`describing ${app} from ${wheel.name}'s core metadata`);
    return descriptionMarkdown(parseProjectDescription(metadata.bytes.toString("utf8")));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
