import { ExitCode, PkgError } from "@pkg/common";

/**
 * A downloaded asset that failed verification: a digest mismatch, a digest `require`d but not
 * declared, or an asset its checksums file does not list. It fails that (version, platform) and
 * makes the run red (exit 1).
 */
export class VerificationError extends PkgError {
  readonly asset: string;
  /** `<algorithm>:<hex>` expected and found, for a mismatch. */
  readonly expected: string | undefined;
  readonly actual: string | undefined;

  constructor(asset: string, message: string, digests: { expected?: string; actual?: string } = {}) {
    super(ExitCode.Failed, `asset ${asset}: ${message}`, { detail: "verification_failed" });
    this.name = "VerificationError";
    this.asset = asset;
    this.expected = digests.expected;
    this.actual = digests.actual;
  }
}
