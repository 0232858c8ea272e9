import type { MapField } from "./field.js";
import { readRegex } from "./regex.js";
import { readUrlRewrite, type UrlRewrite } from "./url-rewrite.js";

/** `source.type: forgeone_release`: versions from the forge's releases of `owner`/`repo`. */
export interface ForgeoneReleaseSource {
  type: "forgeone_release";
  owner: string;
  repo: string;
  /** RE2 pattern over release tags, holding `(?P<version>...)`; default `DEFAULT_TAG_PATTERN`. */
  tag_pattern: string;
  url_rewrite?: UrlRewrite;
}

/** Optional `v`, digits.digits.digits as `version`, optional hyphen and alphanumerics as `prerelease`. */
export const DEFAULT_TAG_PATTERN =
  "^v?(?P<version>[0-9]+\\.[0-9]+\\.[0-9]+)(?:-(?P<prerelease>[0-9A-Za-z]+))?$";

const ownerPattern = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const repoPattern = /^(?!\.\.?$)[A-Za-z0-9._-]+$/;

/** The type's own keys of an open `source` mapping (the caller has checked which keys it holds). */
export function readForgeoneRelease(map: MapField): ForgeoneReleaseSource | undefined {
  const owner = map
    .require("owner")
    ?.matching(ownerPattern, "a forge owner name (letters, digits and inner hyphens)");
  const repo = map
    .require("repo")
    ?.matching(repoPattern, "a forge repository name (letters, digits, '.', '_', '-')");
  const patternField = map.get("tag_pattern");
  const tag_pattern = patternField.present
    ? readRegex(patternField, { groups: ["version"] })
    : DEFAULT_TAG_PATTERN;
  const rewriteField = map.get("url_rewrite");
  const url_rewrite = rewriteField.present ? readUrlRewrite(rewriteField) : undefined;
  if (owner === undefined || repo === undefined || tag_pattern === undefined) return undefined;
  if (rewriteField.present && url_rewrite === undefined) return undefined;
  return { type: "forgeone_release", owner, repo, tag_pattern, ...(url_rewrite ? { url_rewrite } : {}) };
}
