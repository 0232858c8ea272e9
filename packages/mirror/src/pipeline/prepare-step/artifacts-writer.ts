import { constants } from "node:fs";
import { copyFile, mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { writeAtomically } from "@pkg/common";
import { type Metadata, writeMetadataFile } from "@pkg/package";
import { fileDigests } from "../../build/fetch/file-digest.js";
import { bundleFileName, bundleMetadataFileName, preparedManifestFileName } from "../documents/artifacts.js";
import {
  PREPARED_SCHEMA_VERSION,
  type PreparedBundle,
  type PreparedVersion,
} from "../documents/prepared-version.js";

/**
 * Puts one built bundle and its metadata under their stable names in `dir`, each replaced
 * atomically, and describes them for the version's manifest. The bundle is a copy (a clone where
 * the file system shares blocks), never a hard link: an artefact edited in place must not change
 * the finished bundle the next prepare reuses.
 */
export async function placeBundle(
  dir: string,
  tag: string,
  entry: { platform: string; slug: string; bundle: string; metadata: Metadata },
): Promise<PreparedBundle> {
  await mkdir(dir, { recursive: true });
  const bundle = bundleFileName(tag, entry.slug);
  const metadata = bundleMetadataFileName(tag, entry.slug);
  await writeAtomically(join(dir, bundle), "bundle", (temp) =>
    copyFile(entry.bundle, temp, constants.COPYFILE_FICLONE),
  );
  await writeAtomically(join(dir, metadata), "metadata", (temp) => writeMetadataFile(temp, entry.metadata));
  const [digests, info] = await Promise.all([
    fileDigests(join(dir, bundle), ["sha256"]),
    stat(join(dir, bundle)),
  ]);
  return {
    platform: entry.platform,
    platform_slug: entry.slug,
    bundle,
    metadata,
    digest: `sha256:${digests.get("sha256")}`,
    size: info.size,
  };
}

/** Writes `prepared-<tag>.json` last of the version's files: its presence means the rest is whole. */
export async function writePreparedManifest(
  dir: string,
  prepared: Omit<PreparedVersion, "schema_version">,
): Promise<string> {
  const path = join(dir, preparedManifestFileName(prepared.plan.version));
  const document: PreparedVersion = { schema_version: PREPARED_SCHEMA_VERSION, ...prepared };
  await writeAtomically(path, "prepared manifest", (temp) =>
    writeFile(temp, `${JSON.stringify(document, null, 2)}\n`),
  );
  return path;
}
