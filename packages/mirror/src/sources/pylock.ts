import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { normalizeName } from "../python/name.js";
import { isPrerelease, parseVersion } from "../python/pep440.js";
import { parsePylock } from "../python/pylock.js";
import type { PylockSource } from "../spec/source-python.js";
import { checkTaggable } from "./python-versions.js";
import type { UpstreamVersion } from "./types.js";

/**
 * The one version of a `pylock` source: the locked version of the app (the lock package whose
 * PEP 503 name is the source's package). A lock that cannot be read or breaks PEP 751, an app the
 * lock does not hold, or an app locked without a version is exit 65. The assets are the app's
 * locked wheels.
 */
export async function listPylock(source: PylockSource, repoRoot: string): Promise<UpstreamVersion[]> {
  const path = resolve(repoRoot, source.path);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new PkgError(ExitCode.Data, `lock ${source.path}: ${(error as Error).message}`);
  }
  const lock = parsePylock(text, source.path);
  const project = normalizeName(source.package ?? "");
  const app = lock.packages.find((p) => p.name === project);
  if (!app) {
    throw new PkgError(
      ExitCode.Data,
      `lock ${source.path} has no package ${project} (it locks ${lock.packages.map((p) => p.name).join(", ") || "nothing"})`,
    );
  }
  if (app.version === undefined)
    throw new PkgError(ExitCode.Data, `lock ${source.path}: ${project} is locked without a version`);
  checkTaggable(app.version, `lock ${source.path}: ${project}`);
  return [
    {
      version: app.version,
      prerelease: isPrerelease(parseVersion(app.version) as NonNullable<ReturnType<typeof parseVersion>>),
      assets: app.wheels
        .filter((wheel) => wheel.url !== undefined)
        .map((wheel) => ({
          name: wheel.name,
          url: wheel.url as string,
          ...(wheel.hashes.sha256 === undefined ? {} : { digest: `sha256:${wheel.hashes.sha256}` }),
        })),
    },
  ];
}
