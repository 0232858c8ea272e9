import { isMap, isScalar } from "yaml";
import type { Field } from "./field.js";
import { readHttpUrl } from "./http-url.js";
import { readVersionText } from "./version-text.js";

/**
 * The `versions` member of a url-index v1 document (also written inline as `source.versions`):
 * version to entry. An asset value is a URL string or `{url, sha256}`; the model always holds the
 * object form, the digest normalised to `sha256:<hex>`.
 */
export type UrlIndexVersions = Record<string, UrlIndexVersion>;

export interface UrlIndexVersion {
  /** As declared; absent when the document does not say. */
  prerelease?: boolean;
  assets: Record<string, UrlIndexAsset>;
}

export interface UrlIndexAsset {
  url: string;
  sha256?: string;
}

const bareDigest = /^[0-9a-fA-F]{64}$/;
const prefixedDigest = /^sha256:[0-9a-fA-F]{64}$/;

/** `sha256:<hex>` from bare or prefixed hex (hex in lower case), or undefined when malformed. */
export function normaliseSha256(text: string): string | undefined {
  if (bareDigest.test(text)) return `sha256:${text.toLowerCase()}`;
  if (prefixedDigest.test(text)) return text.toLowerCase();
  return undefined;
}

export function readUrlIndexVersions(field: Field): UrlIndexVersions | undefined {
  const map = field.map();
  if (!map) return undefined;
  const out: UrlIndexVersions = {};
  let ok = true;
  for (const { key, field: entry, keyField } of map.fields()) {
    const version = readVersionText(keyField, key);
    const value = readVersionEntry(entry);
    if (version !== undefined && value !== undefined) out[version] = value;
    else ok = false;
  }
  return ok ? out : undefined;
}

function readVersionEntry(field: Field): UrlIndexVersion | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["prerelease", "assets"]);
  const prereleaseField = map.get("prerelease");
  const prerelease = prereleaseField.present ? prereleaseField.boolean() : undefined;
  const assetsMap = map.require("assets")?.map();
  if (!assetsMap) return undefined;
  const assets: Record<string, UrlIndexAsset> = {};
  let ok = !prereleaseField.present || prerelease !== undefined;
  for (const { key, field: value, keyField } of assetsMap.fields()) {
    const name = key.trim() === "" ? keyField.fail("an asset name must not be empty") : key;
    const asset = readAsset(value);
    if (name !== undefined && asset !== undefined) assets[name] = asset;
    else ok = false;
  }
  if (!ok) return undefined;
  return prerelease === undefined ? { assets } : { prerelease, assets };
}

function readAsset(field: Field): UrlIndexAsset | undefined {
  if (isMap(field.value)) {
    const map = field.map();
    if (!map) return undefined;
    map.only(["url", "sha256"]);
    const urlField = map.require("url");
    const shaField = map.require("sha256");
    const url = urlField && readHttpUrl(urlField);
    const text = shaField?.string({ nonEmpty: true });
    if (shaField && text !== undefined && normaliseSha256(text) === undefined) {
      shaField.fail(
        `${JSON.stringify(text)} is not a sha256 digest (64 hex digits, optionally prefixed "sha256:")`,
      );
    }
    const sha256 = text === undefined ? undefined : normaliseSha256(text);
    return url !== undefined && sha256 !== undefined ? { url, sha256 } : undefined;
  }
  if (!isScalar(field.value) || typeof field.value.value !== "string") {
    return field.fail("expected the asset's URL or a mapping {url, sha256}");
  }
  const url = readHttpUrl(field);
  return url === undefined ? undefined : { url };
}
