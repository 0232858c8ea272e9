import { isValidTagName } from "../grammar.js";

/** The tools' own tags (`__pkg.desc`, `__pkg.published`, ...), case-folded as the schema folds `__ocx`. */
const TOOL_TAG = /^__[pP][kK][gG]/;
/** Referrers in the tag scheme: `sha256-<hex>`, with cosign's `.sig`/`.att`/`.sbom` suffix or none. */
const REFERRER_TAG = /^sha256-[0-9a-fA-F]{64}(?:\.[A-Za-z0-9_-]+)?$/;
const OCI_TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;

/**
 * A tag the index never lists: the tools' own documents (`__pkg.*`, and `__ocx*` which the schema
 * reserves), canonical digest-alias tags (`sha256.<hex>`, `sha384.<hex>`, `sha512.<hex>`) and
 * referrer-scheme tags (`sha256-<hex>[.suffix]`). A registry may list them; the writer leaves them out.
 */
export function isReservedTag(tag: string): boolean {
  if (TOOL_TAG.test(tag) || REFERRER_TAG.test(tag)) return true;
  return OCI_TAG.test(tag) && !isValidTagName(tag);
}

/** A tag the index may list: OCI tag grammar and not reserved. */
export function isListableTag(tag: string): boolean {
  return OCI_TAG.test(tag) && !isReservedTag(tag);
}
