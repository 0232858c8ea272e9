import { type Platform, parseImageIndex } from "@pkg/oci";
import { platformKeyFromOci } from "@pkg/package";

/**
 * The platform keys of an image index's entries (`what` names it in errors). Entries whose
 * platform no key can spell are not ours and are left out. Corrupt bytes, or a single manifest
 * where an index belongs, are bad data in a package repository (exit 65).
 */
export function indexPlatformKeys(bytes: Buffer, what: string): string[] {
  return parseImageIndex(bytes, what).manifests.flatMap((entry) => {
    const key = entry.platform ? platformKeyFromOci(entry.platform as Platform) : undefined;
    return key ? [key.key] : [];
  });
}
