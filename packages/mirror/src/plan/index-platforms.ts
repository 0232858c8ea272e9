import { ExitCode, PkgError } from "@pkg/common";
import type { Platform } from "@pkg/oci";
import { platformKeyFromOci } from "@pkg/package";

/**
 * The platform keys of an image index's entries (`what` names it in errors). Entries whose
 * platform no key can spell are not ours and are left out. A single manifest where an index
 * belongs is bad data in a package repository (exit 65).
 */
export function indexPlatformKeys(bytes: Buffer, what: string): string[] {
  let doc: { manifests?: unknown };
  try {
    doc = JSON.parse(bytes.toString("utf8")) as { manifests?: unknown };
  } catch (error) {
    throw new PkgError(ExitCode.Data, `${what} is not JSON`, { cause: error });
  }
  if (!Array.isArray(doc.manifests)) {
    throw new PkgError(ExitCode.Data, `${what} holds a single manifest, not an image index`);
  }
  return (doc.manifests as Array<{ platform?: Platform }>).flatMap((entry) => {
    const key = entry.platform ? platformKeyFromOci(entry.platform) : undefined;
    return key ? [key.key] : [];
  });
}
