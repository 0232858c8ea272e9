import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** Regular files under a directory, as `/`-separated relative paths in sorted order. Symbolic links
 *  are never followed (they could lead out of the tree); each is reported through `skipped`. */
export async function walkFiles(root: string, skipped: (relative: string) => void): Promise<string[]> {
  const out: string[] = [];
  async function visit(relative: string): Promise<void> {
    const entries = await readdir(join(root, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile()) out.push(path);
      else skipped(path);
    }
  }
  await visit("");
  return out;
}
