import { ExitCode, PkgError } from "@pkg/common";
import { displayUrl } from "@pkg/net";
import type { UpstreamAsset } from "../../sources/types.js";
import type { SourceType } from "../../spec/source.js";
import type { DigestPolicy, Verify } from "../../spec/verify.js";
import type { ChecksumsTable } from "./checksums-file.js";
import { type Digest, type DigestAlgorithm, formatDigest, parseDigest } from "./digest.js";
import { VerificationError } from "./errors.js";

/** The digest policy in force for a source type, and the key that sets it (for messages). */
export interface AppliedPolicy {
  policy: DigestPolicy;
  /** `verify.github_asset_digest` or `verify.url_index_digest`; absent for sources that ignore both. */
  key?: string;
}

/**
 * forgeone_release obeys `github_asset_digest`, url_index obeys `url_index_digest`; the
 * environment sources (pylock, pypi) ignore both (their wheels are checked against the lock).
 */
export function digestPolicyFor(verify: Verify, sourceType: SourceType): AppliedPolicy {
  if (sourceType === "forgeone_release") {
    return { policy: verify.github_asset_digest, key: "verify.github_asset_digest" };
  }
  if (sourceType === "url_index") return { policy: verify.url_index_digest, key: "verify.url_index_digest" };
  return { policy: "off" };
}

/** A sidecar fetched for the asset's version, and where it came from. */
export interface ChecksumsSidecar {
  url: string;
  table: ChecksumsTable;
}

/** One digest the downloaded bytes must have, and who vouches for it. */
export interface Expectation {
  digest: Digest;
  from: string;
}

/**
 * What an asset must satisfy once downloaded. `expectations` are checked against the local
 * bytes; `requireUnmet` names the policy key when `require` is in force and no digest was
 * declared (the spec fires this after the download, so it is reported by `checkDownload`).
 * An asset the sidecar does not list fails here, before any download.
 */
export interface VerificationPlan {
  asset: string;
  expectations: Expectation[];
  requireUnmet?: string;
}

export function planVerification(
  asset: UpstreamAsset,
  applied: AppliedPolicy,
  sidecar: ChecksumsSidecar | undefined,
): VerificationPlan {
  const plan: VerificationPlan = { asset: asset.name, expectations: [] };
  if (applied.policy !== "off") {
    if (asset.digest !== undefined) {
      const digest = parseDigest(asset.digest);
      if (!digest) {
        throw new PkgError(
          ExitCode.Data,
          `asset ${asset.name}: the declared digest ${asset.digest} is not one of sha256, sha384 or sha512`,
        );
      }
      plan.expectations.push({ digest, from: `the digest declared upstream (${applied.key})` });
    } else if (applied.policy === "require") {
      plan.requireUnmet = applied.key;
    }
  }
  if (sidecar) {
    const from = `checksums file ${displayUrl(sidecar.url)}`;
    const digest = sidecar.table.get(asset.name);
    if (!digest) throw new VerificationError(asset.name, `not listed in ${from} (verify.checksums_file)`);
    plan.expectations.push({ digest, from });
  }
  return plan;
}

/** The algorithms to compute while downloading: sha256 always (reports), plus each expected one. */
export function algorithmsFor(plan: VerificationPlan): DigestAlgorithm[] {
  return [...new Set<DigestAlgorithm>(["sha256", ...plan.expectations.map((e) => e.digest.algorithm)])];
}

/** Checks the computed digests of the local bytes against the plan; throws the first failure. */
export function checkDownload(plan: VerificationPlan, actual: ReadonlyMap<DigestAlgorithm, string>): void {
  for (const { digest, from } of plan.expectations) {
    const found = actual.get(digest.algorithm);
    if (found === digest.hex) continue;
    const expected = formatDigest(digest);
    const got = `${digest.algorithm}:${found ?? "(not computed)"}`;
    throw new VerificationError(
      plan.asset,
      `digest mismatch: expected ${expected} from ${from}, got ${got}`,
      {
        expected,
        actual: got,
      },
    );
  }
  if (plan.requireUnmet !== undefined) {
    throw new VerificationError(
      plan.asset,
      `no digest declared upstream, and ${plan.requireUnmet} is require`,
    );
  }
}
