import { objectFilePath } from "@pkg/index";
import type { PackageView } from "../site/model/types.js";
import type { LoadedPackage } from "../sources/types.js";

/** The files a read package brought, by package key: `p/<key>.json` and `p/<key>/o/...`. */
export function filesByPackage(paths: Iterable<[string, string]>): Map<string, [string, string][]> {
  const byKey = new Map<string, [string, string][]>();
  for (const entry of paths) {
    const [path] = entry;
    if (!path.startsWith("p/")) continue;
    const at = path.indexOf("/o/");
    const key = at >= 0 ? path.slice(2, at) : path.slice(2, -".json".length);
    const list = byKey.get(key) ?? [];
    list.push(entry);
    byKey.set(key, list);
  }
  return byKey;
}

/** The README's index path, when the package has one and it was read. */
export function readmePath(pkg: LoadedPackage, has: (path: string) => boolean): string | undefined {
  const digest = pkg.root.desc?.readme;
  if (digest === undefined) return undefined;
  const path = objectFilePath(pkg.path, digest, "md");
  return has(path) ? path : undefined;
}

/** True when everything the root names was read (nothing left out with a warning): only such a
 *  package is reused by the next build. */
export function complete(pkg: LoadedPackage, has: (path: string) => boolean): boolean {
  const desc = pkg.root.desc;
  for (const tag of Object.values(pkg.root.tags ?? {}))
    if (!has(objectFilePath(pkg.path, tag.content, "json"))) return false;
  if (desc?.readme !== undefined && !has(objectFilePath(pkg.path, desc.readme, "md"))) return false;
  if (desc?.logo !== undefined && pkg.logo === undefined) return false;
  return true;
}

/** What the build keeps of a package read: its view, its README's path, whether it was read whole. */
export interface Viewed {
  view: PackageView;
  viewHash: string;
  readme?: string;
  complete: boolean;
}

/** Drops what a package was viewed from (its parsed root and image indexes): with thousands of
 *  packages read, these would otherwise stay in memory until the last is read. */
export function release(pkg: LoadedPackage): void {
  pkg.imageIndexes = new Map();
  pkg.root = { name: pkg.root.name, tags: {} } as LoadedPackage["root"];
  delete pkg.logo;
}

/** The root digest of a read package, from its streamed root file's key (its sha256). */
export function rootDigest(files: [string, string][] | undefined, rootPath: string): string | undefined {
  const key = files?.find(([path]) => path === rootPath)?.[1];
  return key === undefined ? undefined : `sha256:${key}`;
}
