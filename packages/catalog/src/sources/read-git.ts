import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import type { WalkedIndex } from "@pkg/index/read";
import { ConfigError } from "../config/errors.js";
import { isInside } from "../config/paths.js";
import type { GitSourceEntry } from "../config/types.js";
import { redactUserinfo } from "../config/userinfo.js";
import { shallowClone } from "./git-clone.js";
import { type PathReadOptions, readIndexDirectory } from "./read-path.js";

/** `<checkout>/<dir>` by its real path, refused (PATH_ESCAPE) when its name or a link in the
 *  checkout leads out of it. The loader checked the name already; the links exist only now. */
async function checkoutDir(checkout: string, raw: string, keyPath: string): Promise<string> {
  const dir = resolve(checkout, raw);
  const leaves = (how: string) =>
    new ConfigError("PATH_ESCAPE", `${keyPath} ${JSON.stringify(raw)} ${how}, outside the checkout`, keyPath);
  if (!isInside(checkout, dir)) throw leaves(`resolves to ${dir}`);
  const realCheckout = await realpath(checkout);
  const realDir = await realpath(dir).catch(() => undefined);
  if (realDir === undefined) {
    throw new PkgError(ExitCode.Data, `${keyPath}: ${JSON.stringify(raw)} does not exist in the repository`);
  }
  if (!isInside(realCheckout, realDir))
    throw leaves(`resolves through a link in the repository to ${realDir}`);
  return realDir;
}

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
    const realDir = await checkoutDir(checkout, entry.dir ?? ".", `${key}.dir`);
    const at = entry.ref === undefined ? "" : `@${entry.ref}`;
    const shownAs = `${redactUserinfo(entry.git)}${at}:${entry.dir ?? "."}`;
    return await readIndexDirectory({ dir: realDir, source: key, shownAs }, options);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
