/** The name grammars of the index format (root.schema.json, c-index.schema.json). */

/** First segment of a package path: a GitHub-login-like namespace, 1 to 39 characters. */
const NAMESPACE = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){0,38}$/;
/** Every later segment: the OCI repository path-component grammar. */
const PACKAGE = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
/** An index label: a lowercase DNS-like name (`ocx.sh`). The schemas pin the label to `ocx.sh`;
 *  this is the one intended difference between our parsers and the published schemas. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const LABEL_MAX = 253;
/** Longest package path below the label (root.schema.json: 147 for `ocx.sh/` + 140). */
export const PACKAGE_PATH_MAX = 140;
/** `name_segments` when config.json does not state it: `<ns>/<pkg>`. */
export const DEFAULT_NAME_SEGMENTS = 2;

const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
/** Tags the index never lists: the tools' own documents (`__pkg.*`, and `__ocx*` which the schema
 *  reserves; case-folded as the schema folds), canonical digest-alias tags, and referrers in the
 *  tag scheme (`sha256-<hex>`, with cosign's `.sig`/`.att`/`.sbom` suffix or none). */
const RESERVED_TAGS = [
  /^__[oO][cC][xX]/,
  /^__[pP][kK][gG]/,
  /^sha256-[0-9a-fA-F]{64}(?:\.[A-Za-z0-9_-]+)?$/,
  /^sha256\.[0-9a-fA-F]{64}$/,
  /^sha384\.[0-9a-fA-F]{96}$/,
  /^sha512\.[0-9a-fA-F]{128}$/,
];

/** True when `path` is `<ns>/<pkg>...` with exactly `segments` segments, each following its grammar:
 *  no empty segment, no `.`/`..`, no backslash, nothing a file system could read as anything but
 *  one plain directory or file name. */
export function isSafePackagePath(path: string, segments: number = DEFAULT_NAME_SEGMENTS): boolean {
  if (path.length > PACKAGE_PATH_MAX) return false;
  const parts = path.split("/");
  if (parts.length !== segments) return false;
  return parts.every((part, i) => (i === 0 ? NAMESPACE : PACKAGE).test(part));
}

export function isValidLabel(label: string): boolean {
  return label.length <= LABEL_MAX && LABEL.test(label);
}

/** Splits `<label>/<ns>/<pkg>` into its label and package path; undefined when either part is not
 *  valid for `segments`. */
export function splitPackageName(
  name: string,
  segments: number = DEFAULT_NAME_SEGMENTS,
): { label: string; path: string } | undefined {
  const slash = name.indexOf("/");
  if (slash < 0) return undefined;
  const label = name.slice(0, slash);
  const path = name.slice(slash + 1);
  return isValidLabel(label) && isSafePackagePath(path, segments) ? { label, path } : undefined;
}

/** A tag in the OCI tag grammar, reserved or not. */
export function isOciTag(tag: string): boolean {
  return TAG.test(tag);
}

/** An OCI tag that is not reserved by the index (see RESERVED_TAGS). */
export function isValidTagName(tag: string): boolean {
  return TAG.test(tag) && !RESERVED_TAGS.some((reserved) => reserved.test(tag));
}
