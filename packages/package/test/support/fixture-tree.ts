import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A small package tree: an executable on PATH, data files, a nested dir and a symlink. */
export async function writeSampleTree(root: string, flavour = "a"): Promise<void> {
  await mkdir(join(root, "bin"), { recursive: true });
  await mkdir(join(root, "share", "doc"), { recursive: true });
  await writeFile(join(root, "bin", "tool"), `#!/bin/sh\necho tool ${flavour}\n`);
  await chmod(join(root, "bin", "tool"), 0o755);
  await writeFile(join(root, "share", "doc", "README"), `sample ${flavour}\n`.repeat(100));
  await writeFile(join(root, "share", "data.bin"), Buffer.alloc(64 * 1024, flavour.charCodeAt(0)));
  await symlink("tool", join(root, "bin", "tool-link"));
}
