import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, isJsonObject, PkgError } from "@pkg/common";
import { parseJsonObject } from "../documents/json-object.js";
import { PREPARED_SCHEMA_VERSION, type PreparedVersion } from "../documents/prepared-version.js";

const MANIFEST = /^prepared-.+\.json$/;

/** Checks the shape push relies on; exit 65 naming the file and the first problem. */
export function parsePreparedVersion(text: string, file: string): PreparedVersion {
  const bad = (why: string) =>
    new PkgError(ExitCode.Data, `${file}: not a prepared-version manifest: ${why}`);
  const doc = parseJsonObject(text, bad);
  if (doc.schema_version !== PREPARED_SCHEMA_VERSION)
    throw bad(
      `schema_version ${JSON.stringify(doc.schema_version)} (this pkg-mirror reads ${PREPARED_SCHEMA_VERSION})`,
    );
  const { plan, bundles, failed } = doc;
  if (!isJsonObject(plan) || typeof plan.version !== "string" || typeof plan.source_version !== "string")
    throw bad('"plan" lacks version or source_version');
  if (!Array.isArray(plan.platforms) || !plan.platforms.every((p) => typeof p === "string"))
    throw bad('"plan.platforms" is not a list of platform keys');
  if (!Array.isArray(bundles)) throw bad('"bundles" is not a list');
  for (const b of bundles) {
    if (
      !isJsonObject(b) ||
      typeof b.platform !== "string" ||
      typeof b.bundle !== "string" ||
      typeof b.metadata !== "string" ||
      typeof b.digest !== "string" ||
      typeof b.size !== "number"
    )
      throw bad("a bundle entry lacks platform, bundle, metadata, digest or size");
    if (
      b.bundle.includes("/") ||
      b.metadata.includes("/") ||
      b.bundle.includes("\\") ||
      b.metadata.includes("\\")
    )
      throw bad(`bundle files are named within the manifest's directory, not ${JSON.stringify(b.bundle)}`);
    if (b.layers !== undefined) checkLayers(b.layers, bad);
  }
  if (!Array.isArray(failed) || !failed.every((f) => isJsonObject(f) && typeof f.platform === "string"))
    throw bad('"failed" is not a list of platforms');
  return doc as unknown as PreparedVersion;
}

/** An environment package's layers: each a file of the manifest's directory, and its wheel. */
function checkLayers(layers: unknown, bad: (why: string) => PkgError): void {
  if (!Array.isArray(layers) || layers.length === 0) throw bad('"layers" is not a non-empty list');
  for (const layer of layers) {
    if (
      !isJsonObject(layer) ||
      typeof layer.file !== "string" ||
      typeof layer.digest !== "string" ||
      typeof layer.size !== "number"
    )
      throw bad("a layer entry lacks file, digest or size");
    if (layer.file.includes("/") || layer.file.includes("\\"))
      throw bad(`layer files are named within the manifest's directory, not ${JSON.stringify(layer.file)}`);
    const wheel = layer.wheel;
    if (
      !isJsonObject(wheel) ||
      typeof wheel.url !== "string" ||
      typeof wheel.package !== "string" ||
      !/^[0-9a-f]{64}$/.test(String(wheel.sha256))
    )
      throw bad(`layer ${layer.file}: its wheel lacks url, package or a sha256`);
  }
}

/** Every `prepared-<tag>.json` of a bundles directory (none when the directory is missing). */
export async function readPreparedVersions(dir: string): Promise<PreparedVersion[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const files = names.filter((name) => MANIFEST.test(name)).sort();
  return Promise.all(
    files.map(async (name) => parsePreparedVersion(await readFile(join(dir, name), "utf8"), join(dir, name))),
  );
}
