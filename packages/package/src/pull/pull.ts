import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { dataError, type Logger, silentLogger, tempPathBeside } from "@pkg/common";
import { type Descriptor, MediaType, type Platform, parseManifestDocument, type Target } from "@pkg/oci";
import { checkEmptyDestination } from "../bundle/empty-destination.js";
import { extractBundle, findEscapingLink } from "../bundle/index.js";
import { PackageMediaType } from "../media-types.js";
import { formatHost, formatPlatform, type HostPlatform, selectPlatformEntry } from "../platform/index.js";
import { asImageIndex } from "../push/index-merge.js";
import { mergeTree } from "./merge-tree.js";

export interface PullRequest {
  target: Target;
  /** Tag or digest. */
  reference: string;
  host: HostPlatform;
  outDir: string;
  /** Told which index entry was chosen, and why. */
  log?: Logger;
  /** Checks the chosen manifest (its signature) before anything is extracted. */
  verifyManifest?: (digest: string, label: string) => Promise<void>;
}

export interface PullReport {
  repository: string;
  reference: string;
  /** The platform pulled: the selected index entry's key, e.g. `linux/amd64+libc.glibc`. */
  platform: string;
  /** The libc the entry was chosen for (the host's, `--libc`'s or the key's); absent off Linux. */
  libc?: string;
  manifestDigest: string;
  outDir: string;
  layers: number;
}

/**
 * Materialises a package: picks the image-index entry for the host (honouring `os.features`
 * against its libc), verifies every blob, and writes `OUT/metadata.json` and `OUT/content/`.
 * Everything is staged beside OUT and renamed into place only when complete.
 */
export async function pullPackage(request: PullRequest): Promise<PullReport> {
  const { target } = request;
  await checkEmptyDestination(request.outDir, "name a new directory with -o");
  const top = await target.fetchManifest(request.reference);
  if (!top) throw dataError(`${target.displayName}:${request.reference} not found`);
  let manifestDescriptor: Descriptor = top.descriptor;
  let manifestBytes = top.bytes;
  const index = asImageIndex(top.bytes, `${target.displayName}:${request.reference}`);
  if (index) {
    const entry = selectPlatformEntry(index.manifests, request.host);
    if (!entry) {
      const offered = index.manifests.map((m) => (m.platform ? formatPlatform(m.platform) : "?")).join(", ");
      throw dataError(
        `${target.displayName}:${request.reference} has no entry for ${formatHost(request.host)} (it has: ${offered || "none"})`,
      );
    }
    (request.log ?? silentLogger).info(selectionLine(entry.platform, request.host));
    const fetched = await target.fetchManifest(entry.digest);
    if (!fetched)
      throw dataError(`${target.displayName}@${entry.digest}: manifest missing from the repository`);
    manifestDescriptor = entry;
    manifestBytes = fetched.bytes;
  }
  await request.verifyManifest?.(
    manifestDescriptor.digest,
    `${target.displayName}:${request.reference}${manifestDescriptor.platform ? ` (${formatPlatform(manifestDescriptor.platform)})` : ""}`,
  );
  const doc = parseManifestDocument(manifestBytes, `${target.displayName}@${manifestDescriptor.digest}`);
  const manifest = doc.kind === "manifest" ? doc.manifest : undefined;
  if (
    manifest === undefined ||
    manifest.mediaType !== MediaType.ImageManifest ||
    manifest.config.mediaType !== PackageMediaType.Config
  ) {
    throw dataError(`${target.displayName}:${request.reference} is not a pkg package`);
  }

  await mkdir(dirname(request.outDir), { recursive: true });
  // created like any directory (mode 0777 less the umask), unlike mkdtemp's 0700: it becomes OUT
  const staging = tempPathBeside(request.outDir);
  await mkdir(staging);
  try {
    await pipeline(
      await target.fetchBlob(manifest.config.digest),
      createWriteStream(join(staging, "metadata.json")),
    );
    const content = join(staging, "content");
    await mkdir(content);
    // every layer's links stay inside it; through each other's they must stay inside the package
    const links = new Map<string, string>();
    for (const [i, layer] of manifest.layers.entries()) {
      const file = join(staging, `layer-${i}`);
      await pipeline(await target.fetchBlob(layer.digest), createWriteStream(file));
      const tree = join(staging, `tree-${i}`);
      const extracted = await extractBundle(file, tree, { expectedDigest: layer.digest });
      for (const [path, linkTarget] of extracted.links) links.set(path, linkTarget);
      await rm(file);
      await mergeTree(tree, content);
      await rm(tree, { recursive: true, force: true });
    }
    const escaping = manifest.layers.length > 1 ? findEscapingLink(links) : undefined;
    if (escaping !== undefined) {
      throw dataError(
        `${target.displayName}:${request.reference}: symlink ${escaping} (to ${links.get(escaping)}) leads outside the package through another layer's links`,
      );
    }
    await writeFile(join(staging, "manifest.json"), manifestBytes);
    await rm(request.outDir, { recursive: true, force: true });
    await rename(staging, request.outDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return {
    repository: target.displayName,
    reference: request.reference,
    platform: manifestDescriptor.platform
      ? formatPlatform(manifestDescriptor.platform)
      : formatHost(request.host),
    ...(request.host.libc === undefined ? {} : { libc: request.host.libc }),
    manifestDigest: manifestDescriptor.digest,
    outDir: request.outDir,
    layers: manifest.layers.length,
  };
}

/** `selected linux/amd64+libc.glibc (host libc glibc)`: the entry taken from the index, and for what. */
function selectionLine(platform: Platform | undefined, host: HostPlatform): string {
  const chosen = platform ? formatPlatform(platform) : "a portable entry (no platform)";
  if (host.libc === undefined) return `selected ${chosen}`;
  return `selected ${chosen} (${host.libcRequired ? "libc" : "host libc"} ${host.libc})`;
}
