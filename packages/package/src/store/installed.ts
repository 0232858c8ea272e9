import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { dataError } from "@pkg/common";
import type { EnvPackage } from "../exec/compose-env.js";
import type { Metadata } from "../metadata/model.js";
import { parseMetadata } from "../metadata/parse.js";
import { packagePath, type Store } from "./home.js";

/** `install.json` of an installed package: what it was installed as, and the packages its dependencies resolved to. */
export interface InstallRecord {
  /** The identifier it was first installed by (informational). */
  identifier: string;
  manifest: string;
  /** The index entry's platform key, when it came from an index. */
  platform?: string;
  /** Dependency name to the digest of the manifest installed for it. */
  dependencies: Record<string, string>;
  /** Entrypoint names that have a launcher in `entrypoints/`. */
  entrypoints: string[];
}

/** A package in the store with its dependencies (recursively): what composing its environment needs. */
export interface InstalledPackage extends EnvPackage {
  /** `packages/sha256/<hex>/`: `content/`, `metadata.json`, `manifest.json`, `install.json`, `entrypoints/`. */
  dir: string;
  manifestDigest: string;
  record: InstallRecord;
  metadata: Metadata;
  dependencies: ReadonlyMap<string, InstalledPackage>;
}

export const INSTALL_RECORD = "install.json";

/** The directories and files of an installed package directory. */
export const packageFiles = (dir: string) => ({
  content: join(dir, "content"),
  metadata: join(dir, "metadata.json"),
  manifest: join(dir, "manifest.json"),
  record: join(dir, INSTALL_RECORD),
  entrypoints: join(dir, "entrypoints"),
});

/**
 * The installed package of `manifestDigest` and its dependencies, or undefined when it is not
 * installed. A package directory exists only once complete with its dependencies installed, so
 * one missing below it is damage to the store (exit 65 naming it).
 */
export async function readInstalled(
  store: Store,
  manifestDigest: string,
  seen = new Map<string, InstalledPackage>(),
): Promise<InstalledPackage | undefined> {
  const known = seen.get(manifestDigest);
  if (known) return known;
  const dir = packagePath(store, manifestDigest);
  const files = packageFiles(dir);
  const recordText = await readFile(files.record, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (recordText === undefined) return undefined;
  const record = parseRecord(recordText, files.record);
  const metadata = parseMetadata(await readFile(files.metadata, "utf8"), files.metadata);
  const dependencies = new Map<string, InstalledPackage>();
  const installed: InstalledPackage = {
    dir,
    manifestDigest,
    record,
    metadata,
    installPath: files.content,
    dependencies,
    ...(record.entrypoints.length > 0 ? { entrypointsDir: files.entrypoints } : {}),
  };
  seen.set(manifestDigest, installed);
  for (const [name, digest] of Object.entries(record.dependencies)) {
    const dependency = await readInstalled(store, digest, seen);
    if (!dependency) throw dataError(`${files.record}: dependency ${name} (${digest}) is not in the store`);
    dependencies.set(name, dependency);
  }
  return installed;
}

function parseRecord(text: string, path: string): InstallRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw dataError(`${path}: not JSON; remove the package directory to install it again`);
  }
  const record = value as Partial<InstallRecord> | null;
  if (
    typeof record?.identifier !== "string" ||
    typeof record.manifest !== "string" ||
    typeof record.dependencies !== "object" ||
    record.dependencies === null ||
    !Array.isArray(record.entrypoints)
  ) {
    throw dataError(`${path}: not an install record; remove the package directory to install it again`);
  }
  return record as InstallRecord;
}
