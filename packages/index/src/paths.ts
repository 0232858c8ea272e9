import { digestHex } from "./digest.js";

/** Extensions of content-addressed objects below `p/<ns>/<pkg>/o/sha256/`. */
export type ObjectExtension = "json" | "md" | "svg" | "png";

const SEGMENT = /^[a-z0-9][a-z0-9._-]*$/;

function checkedPath(pkgPath: string): string {
  // The grammar check proper (segment count, per-segment grammar) is isSafePackagePath; this only
  // guarantees that nothing built here can leave `p/`.
  if (!pkgPath.split("/").every((part) => SEGMENT.test(part) && !part.includes(".."))) {
    throw new TypeError(`not a package path: ${JSON.stringify(pkgPath)}`);
  }
  return pkgPath;
}

/** Index-relative path of a package root: `p/<ns>/<pkg>.json`. */
export function rootFilePath(pkgPath: string): string {
  return `p/${checkedPath(pkgPath)}.json`;
}

/** Index-relative path of a content-addressed object: `p/<ns>/<pkg>/o/sha256/<hex>.<ext>`. */
export function objectFilePath(pkgPath: string, digest: string, ext: ObjectExtension): string {
  return `p/${checkedPath(pkgPath)}/o/sha256/${digestHex(digest)}.${ext}`;
}
