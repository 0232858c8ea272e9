import { chmod, copyFile, link, lstat, mkdir, readdir, readlink, symlink } from "node:fs/promises";
import { join } from "node:path";
import { dataError } from "@pkg/common";
import { findEscapingLink } from "../bundle/symlink-guard.js";

/**
 * `linkLayers`, then the check that no symlink leads out of the package through another layer's
 * links (each layer was checked alone when extracted); `identifier` names the package in the error.
 */
export async function unionLayers(
  layers: readonly string[],
  into: string,
  identifier: string,
): Promise<void> {
  const links = await linkLayers(layers, into);
  const escaping = layers.length > 1 ? findEscapingLink(links) : undefined;
  if (escaping !== undefined) {
    throw dataError(
      `${identifier}: symlink ${escaping} (to ${links.get(escaping)}) leads outside the package through another layer's links`,
    );
  }
}

/**
 * Builds `into` from the extracted layer directories `layers`, in order, without copying: files
 * are hard links to the layers' (copies only across file systems), symlinks are made again, and
 * directories are created with the layers' modes (applied last, deepest first, so a read-only
 * directory is filled before it closes). Layers of a package do not overlap: a path two layers
 * hold (other than a directory both have) is a data error naming it. Returns every symlink
 * (`/`-separated path to target), for the check that none leads out through another's.
 */
export async function linkLayers(layers: readonly string[], into: string): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  const dirModes = new Map<string, number>();
  await mkdir(into, { recursive: true });
  for (const layer of layers) await linkDir(layer, into, "", links, dirModes);
  for (const [dir, mode] of [...dirModes].sort(([a], [b]) => b.length - a.length)) await chmod(dir, mode);
  return links;
}

async function linkDir(
  from: string,
  into: string,
  relative: string,
  links: Map<string, string>,
  dirModes: Map<string, number>,
): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const dest = join(into, entry.name);
    const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
    const overlap = () => dataError(`layers overlap: ${path} is in more than one layer`);
    if (entry.isDirectory()) {
      const existing = await lstat(dest).catch(() => undefined);
      if (existing && !existing.isDirectory()) throw overlap();
      if (!existing) await mkdir(dest);
      dirModes.set(dest, (await lstat(source)).mode & 0o7777);
      await linkDir(source, dest, path, links, dirModes);
    } else if (entry.isSymbolicLink()) {
      const target = await readlink(source);
      await symlink(target, dest).catch((error: NodeJS.ErrnoException) => {
        throw error.code === "EEXIST" ? overlap() : error;
      });
      links.set(path, target);
    } else if (entry.isFile()) {
      await link(source, dest).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code === "EEXIST") throw overlap();
        if (error.code !== "EXDEV" && error.code !== "EPERM") throw error;
        await copyFile(source, dest);
        await chmod(dest, (await lstat(source)).mode & 0o7777);
      });
    } else {
      throw dataError(`${path}: neither a file, a directory nor a symlink`);
    }
  }
}
