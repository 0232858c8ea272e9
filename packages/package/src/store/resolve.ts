import { dataError, ExitCode, PkgError } from "@pkg/common";
import { formatHost, formatPlatform, type HostPlatform, selectPlatformEntry } from "../platform/index.js";
import { asImageIndex } from "../push/index-merge.js";
import { readBlob, writeBlob } from "./blobs.js";
import type { Store } from "./home.js";
import { readRef, writeRef } from "./refs.js";
import { openInSource, type PackageSource, type SourceReference } from "./source.js";

/** The image manifest an identifier names for a host, and how it was found. */
export interface ResolvedManifest {
  opened: SourceReference;
  manifestDigest: string;
  /** The index entry's platform key (`linux/amd64+libc.glibc`), when the identifier named an index. */
  platform?: string;
  /** `selected linux/amd64 (host libc glibc)`, when the identifier named an index. */
  selection?: string;
}

/** Reading one package: where from, for which host, and whether the network may be used. */
export interface SourceOptions {
  store: Store;
  source: PackageSource;
  host: HostPlatform;
  /** Use the store only: a tag is what it was last resolved to, and nothing is fetched (exit 69 when missing). */
  offline?: boolean;
}

const notStored = (what: string) =>
  new PkgError(
    ExitCode.Unavailable,
    `${what} is not in the package store, and --offline forbids fetching it`,
  );

/** A manifest or index by digest: from the store, else fetched (verified) and kept there. */
export async function loadManifestBytes(
  options: SourceOptions,
  opened: SourceReference,
  digest: string,
): Promise<Buffer> {
  const stored = await readBlob(options.store, digest);
  if (stored) return stored;
  const what = `${opened.displayName}@${digest}`;
  if (options.offline) throw notStored(what);
  const fetched = await (await opened.target()).fetchManifest(digest);
  if (!fetched) throw dataError(`${what} not found`);
  await writeBlob(options.store, digest, fetched.bytes);
  return fetched.bytes;
}

/**
 * Resolves `identifier` to the image manifest for the host. A tag is asked of the source each
 * time (one request) and remembered under `refs/`; offline, the remembered digest is taken. A
 * digest the store holds needs no request. An image index is narrowed to the host's entry by the
 * platform rules `pull` uses.
 */
export async function resolveManifest(options: SourceOptions, identifier: string): Promise<ResolvedManifest> {
  const opened = openInSource(options.source, identifier);
  const name = opened.displayName;
  let top = opened.digest;
  if (top === undefined) {
    const tag = opened.tag ?? "latest";
    const segments = opened.refSegments ?? [];
    if (options.offline) {
      top = await readRef(options.store, segments);
      if (top === undefined)
        throw new PkgError(
          ExitCode.Unavailable,
          `${name}:${tag} was never resolved with this package store; run once without --offline`,
        );
    } else {
      const fetched = await (await opened.target()).fetchManifest(tag);
      if (!fetched) throw dataError(`${name}:${tag} not found`);
      top = fetched.descriptor.digest;
      await writeBlob(options.store, top, fetched.bytes);
      await writeRef(options.store, segments, top);
    }
  }
  const bytes = await loadManifestBytes(options, opened, top);
  const index = asImageIndex(bytes, `${name}@${top}`);
  if (!index) return { opened, manifestDigest: top };
  const entry = selectPlatformEntry(index.manifests, options.host);
  if (!entry) {
    const offered = index.manifests.map((m) => (m.platform ? formatPlatform(m.platform) : "?")).join(", ");
    throw dataError(
      `${identifier} has no entry for ${formatHost(options.host)} (it has: ${offered || "none"})`,
    );
  }
  const resolved: ResolvedManifest = { opened, manifestDigest: entry.digest };
  const chosen = entry.platform ? formatPlatform(entry.platform) : undefined;
  if (chosen !== undefined) resolved.platform = chosen;
  resolved.selection = `selected ${chosen ?? "a portable entry (no platform)"} for ${formatHost(options.host)}`;
  return resolved;
}
