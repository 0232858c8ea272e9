import { dataError, type Logger } from "@pkg/common";
import type { TargetReader } from "@pkg/oci";
import type { EnvOs } from "../exec/compose-env.js";
import { hostEnvOs } from "../exec/compose-env.js";
import { dependencyName } from "../metadata/dependencies.js";
import type { Metadata } from "../metadata/model.js";
import { dependencyHost } from "../platform/host.js";
import { type InstalledPackage, readInstalled } from "./installed.js";
import { resolveManifest, type SourceOptions } from "./resolve.js";

export interface InstallOptions extends SourceOptions {
  /** Told which platform was selected and what is installed (nothing when all is installed already). */
  log?: Logger;
  /** Launchers are written for this OS family (default: this machine's). */
  os?: EnvOs;
  /**
   * Checks the named package's manifest before it is used (its signature): every run, installed or
   * not. Dependencies are pinned by digest in that manifest's metadata, so they are covered by it.
   */
  verifyManifest?: (target: TargetReader, digest: string, label: string) => Promise<void>;
}

/**
 * Installs the package `identifier` names for `options.host` into the store, with its
 * dependencies (recursively, each pinned by digest, from the same kind of source), and returns it.
 * Installed already, it is read back without fetching anything beyond resolving a tag. Safe to
 * run in several processes at once: every step writes aside and renames into place.
 */
export async function installPackage(identifier: string, options: InstallOptions): Promise<InstalledPackage> {
  return install(identifier, { ...options, os: options.os ?? hostEnvOs() }, []);
}

async function install(
  identifier: string,
  options: InstallOptions & { os: EnvOs },
  chain: readonly string[],
): Promise<InstalledPackage> {
  const resolved = await resolveManifest(options, identifier);
  const digest = resolved.manifestDigest;
  if (chain.length === 0 && options.verifyManifest) {
    const label = `${identifier}${resolved.platform ? ` (${resolved.platform})` : ""}`;
    await options.verifyManifest(await resolved.opened.target(), digest, label);
  }
  const installed = await readInstalled(options.store, digest);
  if (installed) return installed;
  if (chain.includes(digest)) throw dataError(`${identifier}: dependencies form a cycle through ${digest}`);
  // extraction loads the native decompressors: only when something is to be installed
  const { assemblePackage } = await import("./assemble.js");
  await assemblePackage({
    options,
    identifier,
    resolved,
    installDependency: (dependency) =>
      install(dependency, { ...options, host: dependencyHost(options.host) }, [...chain, digest]),
  });
  const now = await readInstalled(options.store, digest);
  if (!now) throw new Error(`${identifier}: installed, but not found in the store afterwards`);
  return now;
}

/**
 * Installs every dependency `metadata` declares (recursively) and returns them by name, as
 * `EnvPackage.dependencies` wants them: for a package that is not itself in the store (a tree
 * being tested before it is pushed).
 */
export async function installDependencies(
  metadata: Metadata,
  options: InstallOptions,
): Promise<Map<string, InstalledPackage>> {
  const installed = new Map<string, InstalledPackage>();
  for (const dependency of metadata.dependencies ?? [])
    installed.set(
      dependencyName(dependency),
      await installPackage(dependency.identifier, { ...options, host: dependencyHost(options.host) }),
    );
  return installed;
}
