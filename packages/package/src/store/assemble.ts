import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { buffer } from "node:stream/consumers";
import { dataError, describeError, ExitCode, type Logger, PkgError, silentTasks } from "@pkg/common";
import { MediaType, parseManifestDocument } from "@pkg/oci";
import { type EnvOs, type EnvPackage, expandPlaceholders } from "../exec/compose-env.js";
import { writeLaunchers } from "../exec/write-launchers.js";
import { PackageMediaType } from "../media-types.js";
import { dependencyName } from "../metadata/dependencies.js";
import type { Metadata } from "../metadata/model.js";
import { parseMetadata } from "../metadata/parse.js";
import { readBlob, writeBlob } from "./blobs.js";
import { packagePath } from "./home.js";
import { type InstalledPackage, type InstallRecord, packageFiles } from "./installed.js";
import { ensureLayer, isDirectory, renameUnlessPresent } from "./layers.js";
import { unionLayers } from "./link-tree.js";
import { removeTree } from "./remove-tree.js";
import { loadManifestBytes, type ResolvedManifest, type SourceOptions } from "./resolve.js";
import { makeWorkDir, sweepStaleWork } from "./temp.js";

export interface AssembleRequest {
  options: SourceOptions & { log?: Logger; os: EnvOs };
  identifier: string;
  resolved: ResolvedManifest;
  /** Installs one dependency (by its pinned identifier) and returns it. */
  installDependency: (identifier: string) => Promise<InstalledPackage>;
}

/**
 * Installs the package `resolved` names into `packages/<alg>/<hex>/`: its dependencies first,
 * then its layers (each extracted once into `layers/`), linked into `content/` in a work
 * directory together with `metadata.json`, `manifest.json`, the entrypoint launchers and
 * `install.json`, and renamed into place whole. A process that loses that rename to another
 * installing the same package drops its copy: the two are the same.
 */
export async function assemblePackage(request: AssembleRequest): Promise<void> {
  const { options, resolved, identifier } = request;
  const { store, log } = options;
  const target = await resolved.opened.target();
  const what = `${target.displayName}@${resolved.manifestDigest}`;
  const manifestBytes = await loadManifestBytes(options, resolved.opened, resolved.manifestDigest);
  const doc = parseManifestDocument(manifestBytes, what);
  const manifest = doc.kind === "manifest" ? doc.manifest : undefined;
  if (
    manifest === undefined ||
    manifest.mediaType !== MediaType.ImageManifest ||
    manifest.config.mediaType !== PackageMediaType.Config
  ) {
    throw dataError(`${identifier} is not a pkg package`);
  }
  if (resolved.selection) log?.info(`${identifier}: ${resolved.selection}`);
  log?.info(`installing ${identifier} (${resolved.manifestDigest})`);

  let configBytes = await readBlob(store, manifest.config.digest);
  if (!configBytes) {
    if (options.offline)
      throw new PkgError(
        ExitCode.Unavailable,
        `the metadata of ${what} is not in the package store (--offline)`,
      );
    configBytes = await buffer(await target.fetchBlob(manifest.config.digest, manifest.config.size));
    await writeBlob(store, manifest.config.digest, configBytes);
  }
  const metadata = parseMetadata(configBytes.toString("utf8"), `${what} metadata.json`);

  const dependencies = new Map<string, InstalledPackage>();
  for (const dependency of metadata.dependencies ?? [])
    dependencies.set(dependencyName(dependency), await request.installDependency(dependency.identifier));

  await sweepStaleWork(store);
  const work = await makeWorkDir(store);
  const task = (log?.tasks ?? silentTasks).start(`install ${identifier}`);
  try {
    const layers: string[] = [];
    for (const [at, layer] of manifest.layers.entries()) {
      const of = manifest.layers.length > 1 ? ` ${at + 1}/${manifest.layers.length}` : "";
      layers.push(
        await ensureLayer(store, target, layer, work, {
          offline: options.offline === true,
          fetching: () => task.state(`downloading layer${of}`),
          onBytes: (received) => task.bytes(received, layer.size),
          extracting: () => task.state(`extracting layer${of}`),
        }),
      );
    }
    task.state("assembling");
    const staging = join(work, "package");
    await mkdir(staging);
    const files = packageFiles(staging);
    await unionLayers(layers, files.content, identifier);
    const pkg: EnvPackage = { metadata, installPath: files.content, dependencies };
    await checkRequiredPaths(pkg, identifier);
    await writeFile(files.metadata, configBytes);
    await writeFile(files.manifest, manifestBytes);
    const final = packageFiles(packagePath(store, resolved.manifestDigest));
    const entrypoints = await writeLaunchers(
      { pkg, installPath: final.content, entrypointsDir: final.entrypoints, identifier },
      files.entrypoints,
      options.os,
    );
    const record: InstallRecord = {
      identifier,
      manifest: resolved.manifestDigest,
      ...(resolved.platform === undefined ? {} : { platform: resolved.platform }),
      dependencies: Object.fromEntries([...dependencies].map(([name, dep]) => [name, dep.manifestDigest])),
      entrypoints,
    };
    await writeFile(files.record, `${JSON.stringify(record, null, 2)}\n`);
    const destination = packagePath(store, resolved.manifestDigest);
    await mkdir(dirname(destination), { recursive: true });
    await renameUnlessPresent(staging, destination);
    task.done();
  } catch (error) {
    task.failed(describeError(error).line);
    throw error;
  } finally {
    await removeTree(work);
  }
}

/** Every path entry marked `required` names a directory that exists (exit 65 naming the entry otherwise). */
async function checkRequiredPaths(pkg: EnvPackage, identifier: string): Promise<void> {
  const metadata: Metadata = pkg.metadata;
  for (const [i, entry] of (metadata.env ?? []).entries()) {
    if (entry.type !== "path" || entry.required !== true) continue;
    if (!(await isDirectory(expandPlaceholders(entry.value, pkg))))
      throw dataError(
        `${identifier}: env[${i}] (${entry.key}=${entry.value}) is required but is not a directory in the package`,
      );
  }
}
