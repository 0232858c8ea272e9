import type { ImageIndex } from "@pkg/index";
import type { AnnotatedValue } from "./types.js";

/** The string itself when it parses as an https URL, else undefined: index data never yields another
 *  scheme of link. */
export function httpsHref(value: unknown): string | undefined {
  // an absolute URL has a scheme and its colon: a license name or a revision is not parsed (a parse
  // that throws is slow, and index data has thousands of them)
  if (typeof value !== "string" || !value.includes(":")) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === "https:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function annotated(value: string | undefined): AnnotatedValue | undefined {
  if (typeof value !== "string" || value.length === 0) return undefined;
  const href = httpsHref(value);
  return href === undefined ? { text: value } : { text: value, href };
}

/** License, source and revision from the OCI annotations of an image index; each links only when its
 *  value is itself an https URL. */
export function imageMeta(index: ImageIndex | undefined): {
  license?: AnnotatedValue;
  source?: AnnotatedValue;
  revision?: AnnotatedValue;
} {
  const annotations = index?.annotations;
  if (!annotations || typeof annotations !== "object") return {};
  const out: { license?: AnnotatedValue; source?: AnnotatedValue; revision?: AnnotatedValue } = {};
  const license = annotated(annotations["org.opencontainers.image.licenses"]);
  const source = annotated(annotations["org.opencontainers.image.source"]);
  const revision = annotated(annotations["org.opencontainers.image.revision"]);
  if (license) out.license = license;
  if (source) out.source = source;
  if (revision) out.revision = revision;
  return out;
}
