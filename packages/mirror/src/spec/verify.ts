import { isScalar } from "yaml";
import type { Field } from "./field.js";
import { readHttpUrl } from "./http-url.js";

export const DIGEST_POLICIES = ["off", "if_present", "require"] as const;
/** What a declared digest obliges: ignore it, check it when declared, or demand one. */
export type DigestPolicy = (typeof DIGEST_POLICIES)[number];

/** `verify`: checksum verification of downloaded assets. */
export interface Verify {
  github_asset_digest: DigestPolicy;
  url_index_digest: DigestPolicy;
  /** sha256sum-format sidecar URL; absent = none. */
  checksums_file?: string;
}

/** What an absent `verify` (or `{}`) means. */
export const DEFAULT_VERIFY: Verify = { github_asset_digest: "if_present", url_index_digest: "if_present" };

export function readVerify(field: Field): Verify | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["github_asset_digest", "url_index_digest", "checksums_file"]);
  const verify: Verify = { ...DEFAULT_VERIFY };
  let ok = true;
  for (const key of ["github_asset_digest", "url_index_digest"] as const) {
    const value = map.get(key);
    if (!value.present) continue;
    const policy = readPolicy(value);
    if (policy === undefined) ok = false;
    else verify[key] = policy;
  }
  const checksums = map.get("checksums_file");
  if (checksums.present) {
    const url = readHttpUrl(checksums);
    if (url === undefined) ok = false;
    else verify.checksums_file = url;
  }
  return ok ? verify : undefined;
}

/** A policy word, or a boolean: `false` is `off`, `true` is `if_present`. */
function readPolicy(field: Field): DigestPolicy | undefined {
  const node = field.value;
  if (isScalar(node) && typeof node.value === "boolean") return node.value ? "if_present" : "off";
  return field.oneOf(DIGEST_POLICIES);
}
