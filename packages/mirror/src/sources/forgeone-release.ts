import { isJsonObject } from "@pkg/common";
import type { RE2JS } from "re2js";
import { normaliseSha256 } from "../spec/url-index-versions.js";
import { rewriteUrl, type UrlRewrite } from "../spec/url-rewrite.js";
import type { UpstreamAsset, UpstreamVersion } from "./types.js";

/** The fields of a forge release object this source reads. */
export interface ForgeRelease {
  tag_name: string;
  draft: boolean;
  prerelease: boolean;
  assets: Array<{ name: string; browser_download_url: string; digest?: string | null }>;
}

function isAsset(value: unknown): value is ForgeRelease["assets"][number] {
  return (
    isJsonObject(value) &&
    typeof value.name === "string" &&
    typeof value.browser_download_url === "string" &&
    (value.digest === undefined || value.digest === null || typeof value.digest === "string")
  );
}

/** Whether a value of a releases page has the shape this source reads. */
export function isForgeRelease(value: unknown): value is ForgeRelease {
  return (
    isJsonObject(value) &&
    typeof value.tag_name === "string" &&
    typeof value.draft === "boolean" &&
    typeof value.prerelease === "boolean" &&
    Array.isArray(value.assets) &&
    value.assets.every(isAsset)
  );
}

/**
 * The tag's version: the pattern's `version` group, with `-<prerelease>` appended when that group
 * matched something. The pattern is searched for anywhere in the tag (anchor it to match the whole
 * tag); undefined when it does not match or `version` is empty.
 */
export function versionFromTag(
  tag: string,
  pattern: RE2JS,
): { version: string; prerelease: boolean } | undefined {
  const matcher = pattern.matcher(tag);
  if (!matcher.find()) return undefined;
  const version = matcher.group("version");
  if (!version) return undefined;
  const suffix = "prerelease" in pattern.namedGroups() ? matcher.group("prerelease") : null;
  return suffix ? { version: `${version}-${suffix}`, prerelease: true } : { version, prerelease: false };
}

/** One release as an upstream version; undefined for drafts and tags the pattern does not match. */
export function releaseVersion(
  release: ForgeRelease,
  pattern: RE2JS,
  rewrite: UrlRewrite | undefined,
): UpstreamVersion | undefined {
  if (release.draft) return undefined;
  const matched = versionFromTag(release.tag_name, pattern);
  if (!matched) return undefined;
  const assets = release.assets.map((asset): UpstreamAsset => {
    const url = rewrite ? rewriteUrl(asset.browser_download_url, rewrite) : asset.browser_download_url;
    const digest = asset.digest ? normaliseSha256(asset.digest) : undefined;
    return { name: asset.name, url, ...(digest ? { digest } : {}) };
  });
  return {
    version: matched.version,
    prerelease: matched.prerelease || release.prerelease,
    assets,
    tag: release.tag_name,
  };
}
