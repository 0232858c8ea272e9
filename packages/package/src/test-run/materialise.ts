import { existsSync } from "node:fs";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import type { Logger } from "@pkg/common";
import { extractBundle } from "../bundle/extract.js";
import type { EnvOs, EnvPackage } from "../exec/compose-env.js";
import { writeLaunchers } from "../exec/write-launchers.js";
import { readMetadataFile } from "../metadata/files.js";
import { defaultMetadata } from "../metadata/model.js";
import type { HostPlatform } from "../platform/host.js";
import { openStore } from "../store/home.js";
import { installDependencies, installPackage } from "../store/install.js";
import { unionLayers } from "../store/link-tree.js";
import { removeTree } from "../store/remove-tree.js";
import type { PackageSource } from "../store/source.js";

/** What is tested: bundle files (the package's layers, in order) with their metadata, or a published package. */
export type TestSubject =
  | { kind: "bundle"; bundles: readonly [string, ...string[]]; metadata?: string }
  | { kind: "reference"; identifier: string };

export interface MaterialiseOptions {
  /** Where dependencies (and a reference) come from. */
  source: PackageSource;
  host: HostPlatform;
  offline: boolean;
  os: EnvOs;
  log?: Logger;
  env?: Readonly<Record<string, string | undefined>>;
}

/** A package ready to test, and the work directory of this run (its scratch directory goes there too). */
export interface Materialised {
  pkg: EnvPackage;
  /** The package's content directory: `PKG_INSTALL_DIR`, the script's `package_root`. */
  root: string;
  /** Where the test's scratch directory and (for a bundle) the package are: removed by `dispose`. */
  work: string;
  dispose(): Promise<void>;
}

/** `metadata.json` beside the bundle: where `pkg package create --metadata` writes it. */
export function metadataBeside(bundle: string): string {
  return join(dirname(bundle), "metadata.json");
}

/**
 * Makes `subject` runnable as `pkg exec` would: a reference is installed into the store (with its
 * dependencies); a bundle is extracted into a fresh work directory with its entrypoint launchers,
 * its dependencies installed into the store. Several bundles are the layers of one package (an
 * environment package's wheels), put together as an install puts a published package's layers.
 * The metadata is `subject.metadata`, else the `metadata.json` beside the first bundle, else the
 * empty default (as `pkg package push` takes it).
 */
export async function materialise(subject: TestSubject, options: MaterialiseOptions): Promise<Materialised> {
  const store = openStore(options.env);
  const installOptions = {
    store,
    source: options.source,
    host: options.host,
    offline: options.offline,
    os: options.os,
    ...(options.log === undefined ? {} : { log: options.log }),
  };
  const work = await mkdtemp(join(tmpdir(), "pkg-test-"));
  // a work directory that cannot be removed is only litter in the temporary directory: said, not
  // fatal to the test's verdict
  const dispose = () =>
    removeTree(work).catch((error: unknown) => {
      options.log?.warn(`${work}: not removed: ${error instanceof Error ? error.message : String(error)}`);
    });
  try {
    if (subject.kind === "reference") {
      const pkg = await installPackage(subject.identifier, installOptions);
      return { pkg, root: pkg.installPath, work, dispose };
    }
    const [first] = subject.bundles;
    const metadataFile = subject.metadata ?? metadataBeside(first);
    const metadata =
      subject.metadata !== undefined || existsSync(metadataFile)
        ? await readMetadataFile(metadataFile)
        : defaultMetadata();
    const dependencies = await installDependencies(metadata, installOptions);
    const dir = join(work, "package");
    await mkdir(dir);
    const root = join(dir, "content");
    const identifier = basename(resolve(first));
    if (subject.bundles.length === 1) await extractBundle(first, root);
    else {
      const layers: string[] = [];
      await mkdir(join(work, "layers"));
      for (const [i, bundle] of subject.bundles.entries()) {
        const layer = join(work, "layers", String(i));
        await extractBundle(bundle, layer);
        layers.push(layer);
      }
      await unionLayers(layers, root, identifier);
    }
    const entrypointsDir = join(dir, "entrypoints");
    const bare: EnvPackage = { metadata, installPath: root, dependencies };
    const written = await writeLaunchers(
      { pkg: bare, installPath: root, entrypointsDir, identifier },
      entrypointsDir,
      options.os,
    );
    return { pkg: written.length > 0 ? { ...bare, entrypointsDir } : bare, root, work, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
