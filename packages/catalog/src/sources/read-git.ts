import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import type { WalkedIndex } from "@pkg/index/read";
import { isInside } from "../config/paths.js";
import type { GitSourceEntry } from "../config/types.js";
import { withoutCredentials } from "./display-url.js";
import { shallowClone } from "./git-clone.js";
import { type PathReadOptions, readIndexDirectory } from "./read-path.js";

/** Clones the remote shallow into a temp dir, reads `<checkout>/<dir>` as a local tree, and removes
 *  the checkout again. */
export async function readGitSource(
  entry: GitSourceEntry,
  options: PathReadOptions = {},
): Promise<WalkedIndex> {
  const key = `sources[${entry.index}]`;
  const temp = await mkdtemp(join(tmpdir(), "pkg-catalog-git-"));
  try {
    const checkout = join(temp, "checkout");
    await shallowClone(entry.git, entry.ref, checkout, key);
    const dir = resolve(checkout, entry.dir ?? ".");
    if (!isInside(checkout, dir)) {
      throw new PkgError(ExitCode.Data, `${key}.dir: ${JSON.stringify(entry.dir)} leaves the checkout`);
    }
    const realCheckout = await realpath(checkout);
    const realDir = await realpath(dir).catch(() => undefined);
    if (realDir === undefined) {
      throw new PkgError(
        ExitCode.Data,
        `${key}.dir: ${JSON.stringify(entry.dir)} does not exist in the repository`,
      );
    }
    if (!isInside(realCheckout, realDir)) {
      throw new PkgError(
        ExitCode.Data,
        `${key}.dir: ${JSON.stringify(entry.dir)} links outside the checkout`,
      );
    }
    const at = entry.ref === undefined ? "" : `@${entry.ref}`;
    const shownAs = `${withoutCredentials(entry.git)}${at}:${entry.dir ?? "."}`;
    return await readIndexDirectory({ dir: realDir, source: key, shownAs }, options);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
