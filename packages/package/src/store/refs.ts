import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { writeAtomically } from "@pkg/common";
import { isDigest } from "@pkg/oci/documents";
import { refPath, type Store } from "./home.js";

/** The digest a tag was last resolved to (`segments`: source, repository path, tag), if any. */
export async function readRef(store: Store, segments: readonly string[]): Promise<string | undefined> {
  const text = await readFile(refPath(store, segments), "utf8").catch(() => undefined);
  const digest = text?.trim();
  return digest !== undefined && isDigest(digest) ? digest : undefined;
}

/** Remembers what a tag resolved to, replacing the file atomically (a reader sees the old digest or the new). */
export async function writeRef(store: Store, segments: readonly string[], digest: string): Promise<void> {
  if ((await readRef(store, segments)) === digest) return;
  const path = refPath(store, segments);
  await mkdir(dirname(path), { recursive: true });
  await writeAtomically(path, "tag reference", (temp) => writeFile(temp, `${digest}\n`));
}
