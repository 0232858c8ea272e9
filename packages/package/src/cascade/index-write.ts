import { ExitCode, PkgError } from "@pkg/common";
import { type Descriptor, type ImageIndex, MediaType, type Target } from "@pkg/oci";
import { asImageIndex } from "../push/index-merge.js";
import { canonicalJson } from "../push/manifest.js";

/** How one checked write of a tag's index went. */
export type CheckedWrite =
  | { outcome: "written"; digest: string }
  /**
   * The tag moved under another writer: before the write (`expected` is what was read, the write
   * was not made) or between the write and its read-back (`expected` is what was written).
   * Null: the tag did not exist.
   */
  | { outcome: "raced"; expected: string | null; live: string | null; wrote: boolean };

const liveDigest = async (target: Target, tag: string) =>
  (await target.fetchManifest(tag))?.descriptor.digest ?? null;

/**
 * Writes `index` under `tag` once, unless the tag no longer holds `observed` (the digest it held
 * when the index was computed; null: absent), then reads the tag back: registries offer no
 * compare-and-swap, so a writer between the read and the write, or right after, is detected,
 * never overwritten knowingly and never reported as written.
 */
export async function writeIndexChecked(
  target: Target,
  tag: string,
  observed: string | null,
  index: ImageIndex,
): Promise<CheckedWrite> {
  const before = await liveDigest(target, tag);
  if (before !== observed) return { outcome: "raced", expected: observed, live: before, wrote: false };
  const written = await target.pushManifest(canonicalJson(index), MediaType.ImageIndex, tag);
  const after = await liveDigest(target, tag);
  if (after !== written.digest)
    return { outcome: "raced", expected: written.digest, live: after, wrote: true };
  return { outcome: "written", digest: written.digest };
}

/** Re-reads and re-applies a change this often when another writer moves the tag in between. */
const MAX_REPOINT_ATTEMPTS = 5;

/**
 * Points every entry of `tag`'s index that names manifest `from` at `to` instead (same platform,
 * same entry annotations), with a checked write; re-applied on a fresh read when another writer
 * moved the tag. Returns the index digest written, or undefined when the tag is absent or names
 * no such entry (nothing to do). A tag holding a single manifest is exit 65.
 */
export async function repointIndexEntry(
  target: Target,
  tag: string,
  from: string,
  to: Pick<Descriptor, "digest" | "size">,
): Promise<string | undefined> {
  for (let attempt = 1; attempt <= MAX_REPOINT_ATTEMPTS; attempt++) {
    const stored = await target.fetchManifest(tag);
    if (!stored) return undefined;
    const index = asImageIndex(stored.bytes, `${target.displayName}:${tag}`);
    if (!index) {
      throw new PkgError(
        ExitCode.Data,
        `${target.displayName}:${tag} holds a single manifest, not an image index; refusing to replace it`,
      );
    }
    if (!index.manifests.some((m) => m.digest === from)) return undefined;
    const next: ImageIndex = {
      ...index,
      manifests: index.manifests.map((m) =>
        m.digest === from ? { ...m, digest: to.digest, size: to.size } : m,
      ),
    };
    const write = await writeIndexChecked(target, tag, stored.descriptor.digest, next);
    if (write.outcome === "written") return write.digest;
  }
  throw new PkgError(
    ExitCode.Transient,
    `${target.displayName}:${tag} kept changing under concurrent writers while re-pointing it`,
  );
}
