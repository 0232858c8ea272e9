import { createHash } from "node:crypto";
import type { BlobSource } from "@pkg/oci";

/** A blob held in memory (configs, manifests' small companions, descriptions). */
export function bufferSource(bytes: Buffer): BlobSource {
  return {
    digest: `sha256:${createHash("sha256").update(bytes).digest("hex")}`,
    size: bytes.length,
    open: () => bytes,
  };
}
