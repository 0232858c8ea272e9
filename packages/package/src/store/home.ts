import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { dataError } from "@pkg/common";
import { parseDigest } from "@pkg/oci/documents";

/** A local package store: the directory `$PKG_HOME` (default `~/.pkg`). See README.md here for its layout. */
export interface Store {
  home: string;
}

/** The store `env` names: `$PKG_HOME` when set (made absolute), else `~/.pkg`. */
export function openStore(env: Readonly<Record<string, string | undefined>> = process.env): Store {
  const named = env.PKG_HOME;
  return { home: named ? resolve(named) : join(homedir(), ".pkg") };
}

/** `<algorithm>/<hex>` of a digest, as the store names content by it. */
function digestPath(digest: string): string[] {
  const parsed = parseDigest(digest);
  if (parsed === undefined) throw dataError(`"${digest}" is not a sha256 or sha512 digest`);
  return [parsed.algorithm, parsed.hex];
}

/** A manifest, image index or config blob: `blobs/sha256/<hex>`. */
export const blobPath = (store: Store, digest: string) => join(store.home, "blobs", ...digestPath(digest));

/** A layer extracted once: `layers/sha256/<hex>/`. */
export const layerPath = (store: Store, digest: string) => join(store.home, "layers", ...digestPath(digest));

/** An installed package, named by its manifest's digest: `packages/sha256/<hex>/`. */
export const packagePath = (store: Store, manifestDigest: string) =>
  join(store.home, "packages", ...digestPath(manifestDigest));

/** Work in progress of one process (downloads, extractions, assemblies), renamed into place when whole. */
export const tempRoot = (store: Store) => join(store.home, "temp");

/** The file remembering what a tag resolved to: `refs/<source>/<repository>/_tags/<tag>`. */
export const refPath = (store: Store, segments: readonly string[]) => join(store.home, "refs", ...segments);
