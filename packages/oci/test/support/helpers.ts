import { sha256Digest } from "../../src/digest.js";
import { type BlobSource, type ImageIndex, type ImageManifest, MediaType } from "../../src/types.js";

export interface MemorySource extends BlobSource {
  opened: number;
  open(): Buffer;
}

/** A blob source over bytes in memory, counting how often it was opened. */
export function bufferSource(bytes: Buffer): MemorySource {
  const source = {
    digest: sha256Digest(bytes),
    size: bytes.length,
    opened: 0,
    open() {
      source.opened += 1;
      return bytes;
    },
  };
  return source;
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** A small image manifest over a config and layers already pushed. */
export function imageManifest(
  config: BlobSource,
  layers: BlobSource[],
  extra: Partial<ImageManifest> = {},
): Buffer {
  const manifest: ImageManifest = {
    schemaVersion: 2,
    mediaType: MediaType.ImageManifest,
    config: {
      mediaType: "application/vnd.oci.image.config.v1+json",
      digest: config.digest,
      size: config.size,
    },
    layers: layers.map((l) => ({
      mediaType: "application/vnd.oci.image.layer.v1.tar",
      digest: l.digest,
      size: l.size,
    })),
    ...extra,
  };
  return Buffer.from(JSON.stringify(manifest));
}

export function imageIndex(manifests: ImageIndex["manifests"]): Buffer {
  const index: ImageIndex = { schemaVersion: 2, mediaType: MediaType.ImageIndex, manifests };
  return Buffer.from(JSON.stringify(index));
}

/**
 * Requests minus the client's scheme probe (`GET /v2/`, sent once per client to a loopback
 * host to learn whether it speaks plain HTTP), for tests that assert exact request sequences.
 */
export function withoutSchemeProbe<T extends { method: string; url: string }>(requests: readonly T[]): T[] {
  return requests.filter((r) => !(r.method === "GET" && r.url.split("?")[0] === "/v2/"));
}
