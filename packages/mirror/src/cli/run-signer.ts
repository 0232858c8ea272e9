import { ExitCode, type Logger, PkgError } from "@pkg/common";
import type { RunSigner } from "../publish/sign-published.js";
import type { SignSpec } from "../spec/sign.js";

/**
 * The run's signer when the spec has `sign`: every reference resolved and the key opened here,
 * before the first push (exit 78 naming the field when a secret resolves to nothing, 82 for a
 * key-management-service key).
 */
export async function runSignerFor(
  sign: SignSpec | undefined,
  env: NodeJS.ProcessEnv,
  log: Logger,
): Promise<RunSigner | undefined> {
  if (sign === undefined) return undefined;
  // imported here: the signing libraries cost a push without `sign` a fifth of a second to load
  const [{ openSpecSigner }, { RunSigner }] = await Promise.all([
    import("../publish/sign-resolve.js"),
    import("../publish/sign-published.js"),
  ]);
  const signer = await openSpecSigner(sign, env);
  log.info(`signing with ${signer.description}`);
  return new RunSigner(signer, log);
}

/** Exit 1 when the run's signing failed somewhere (after its report is out). */
export function throwIfSigningFailed(signer: RunSigner | undefined): void {
  const line = signer?.failureLine();
  if (line !== undefined) throw new PkgError(ExitCode.Failed, line);
}
