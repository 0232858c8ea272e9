import { describeError, type ExitCode, type Logger } from "@pkg/common";
import type { Target, TargetReader } from "@pkg/oci";
import { attachSignature } from "./attach.js";
import { hasSignature } from "./discover.js";
import type { PayloadSigner } from "./signer.js";
import { simpleSigningPayload } from "./simple-signing.js";
import type { Subject } from "./subjects.js";

/** `would_sign`: a dry run found the subject unsigned. */
export type SignStatus = "completed" | "skipped" | "failed" | "would_sign";

export interface SignOutcome {
  subject: string;
  label: string;
  status: SignStatus;
  /** The signature manifest written (completed). */
  signature?: string;
  reason?: string;
  error?: { exit_code: ExitCode; message: string };
}

/** The repository a simple signing payload names: `registry/ns/tool`, or the layout's repository. */
export function dockerReference(target: TargetReader): string {
  return target.displayName.startsWith("layout:") ? target.repository : target.displayName;
}

/**
 * Signs each subject once (subjects of equal digest are signed once), in order. With
 * `skipSigned`, a subject that already has a signature of any kind is skipped (presence decides).
 * A failure is that subject's outcome; the others go on.
 */
export async function signSubjects(
  target: Target,
  subjects: readonly Subject[],
  signer: PayloadSigner,
  options: { log: Logger; skipSigned?: boolean; dryRun?: boolean },
): Promise<SignOutcome[]> {
  const outcomes: SignOutcome[] = [];
  const seen = new Set<string>();
  for (const subject of subjects) {
    const digest = subject.descriptor.digest;
    if (seen.has(digest)) continue;
    seen.add(digest);
    const base = { subject: digest, label: subject.label };
    try {
      if (options.skipSigned && (await hasSignature(target, digest))) {
        outcomes.push({ ...base, status: "skipped", reason: "already signed" });
        continue;
      }
      if (options.dryRun) {
        outcomes.push({ ...base, status: "would_sign" });
        continue;
      }
      const payload = simpleSigningPayload(dockerReference(target), digest);
      const annotations = await signer.sign(payload);
      const written = await attachSignature(target, subject.descriptor, payload, annotations);
      options.log.info(`signed ${subject.label} ${digest.slice(0, 19)} -> ${written.digest.slice(0, 19)}`);
      outcomes.push({ ...base, status: "completed", signature: written.digest });
    } catch (error) {
      const { exitCode, line: message } = describeError(error);
      options.log.warn(`${subject.label}: signing failed: ${message}`);
      outcomes.push({ ...base, status: "failed", error: { exit_code: exitCode, message } });
    }
  }
  return outcomes;
}
