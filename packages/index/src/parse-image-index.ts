import { Checker } from "./checker.js";
import { documentValue } from "./decode.js";
import { childPath } from "./json-path.js";
import type { ImageIndex } from "./types.js";

/** The OCI digest grammar, algorithm-agnostic (image-index.schema.json). */
const OCI_DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;

/** `o/sha256/<hex>.json` (image-index.schema.json): open at every level, but `schemaVersion`,
 *  `manifests[]` and each descriptor's `mediaType`/`digest`/`size`/`platform` are checked. */
export function parseImageIndex(input: unknown, where: string): ImageIndex {
  const check = new Checker(where);
  const obj = check.object(documentValue(input, where), "$");
  check.members(obj, "$", ["schemaVersion", "manifests"]);
  if (obj.schemaVersion !== 2) check.fail("$.schemaVersion", "must be 2");
  if (obj.mediaType !== undefined) check.string(obj.mediaType, "$.mediaType", { min: 1 });
  check.array(obj.manifests, "$.manifests").forEach((item, i) => {
    checkDescriptor(check, item, childPath("$.manifests", i));
  });
  return obj as unknown as ImageIndex;
}

function checkDescriptor(check: Checker, value: unknown, path: string): void {
  const descriptor = check.object(value, path);
  check.members(descriptor, path, ["mediaType", "digest", "size"]);
  check.string(descriptor.mediaType, `${path}.mediaType`, { min: 1 });
  check.string(descriptor.digest, `${path}.digest`, { pattern: OCI_DIGEST, what: "not a valid digest" });
  check.integer(descriptor.size, `${path}.size`, 0);
  if (descriptor.platform !== undefined) checkPlatform(check, descriptor.platform, `${path}.platform`);
}

function checkPlatform(check: Checker, value: unknown, path: string): void {
  const platform = check.object(value, path);
  check.members(platform, path, ["architecture", "os"]);
  for (const key of ["architecture", "os", "os.version", "variant"]) {
    if (platform[key] !== undefined) check.string(platform[key], childPath(path, key), { min: 1 });
  }
  for (const key of ["os.features", "features"]) {
    if (platform[key] !== undefined) check.stringArray(platform[key], childPath(path, key), { min: 1 });
  }
}
