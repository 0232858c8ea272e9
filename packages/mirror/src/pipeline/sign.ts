import type { Logger } from "@pkg/common";
import type { Target } from "@pkg/oci";
import { parseTag } from "@pkg/package";
import {
  type PayloadSigner,
  referenceSubjects,
  type SignOutcome,
  type Subject,
  signSubjects,
} from "@pkg/package/sign";
import { isRecordTag } from "../plan/record-tags.js";

export interface SignSweepReport {
  target: string;
  dry_run: boolean;
  counts: { completed: number; skipped: number; failed: number; would_sign: number };
  subjects: SignOutcome[];
}

/** A repository's package tags: primary, exact and rolling, and a PEP 440 version's builds (not
 *  descriptions, summaries or signatures). */
const isPackageTag = (tag: string) => {
  const kind = parseTag(tag).kind;
  return kind === "primary" || kind === "exact" || kind === "rolling" || isRecordTag(tag);
};

/**
 * `pipeline sign`: every published subject (each package tag's image index and each platform
 * manifest it lists, once per digest) that has no signature yet is signed; one that has any
 * signature is skipped (presence decides, nothing is verified), so a second run signs nothing.
 * A dry run signs nothing and needs no signer: it reports what it would sign.
 */
export async function signPublished(
  target: Target,
  signer: PayloadSigner | undefined,
  options: { log: Logger; dryRun: boolean },
): Promise<SignSweepReport> {
  const tags = (await target.listTags()).filter(isPackageTag).sort();
  const subjects: Subject[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    for (const subject of await referenceSubjects(target, tag, undefined)) {
      if (seen.has(subject.descriptor.digest)) continue;
      seen.add(subject.descriptor.digest);
      subjects.push(subject);
    }
  }
  const placeholder: PayloadSigner = {
    description: "dry run",
    sign: () => Promise.reject(new Error("a dry run signs nothing")),
  };
  const outcomes = await signSubjects(target, subjects, signer ?? placeholder, {
    log: options.log,
    skipSigned: true,
    dryRun: options.dryRun,
  });
  const count = (status: SignOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  return {
    target: target.displayName,
    dry_run: options.dryRun,
    counts: {
      completed: count("completed"),
      skipped: count("skipped"),
      failed: count("failed"),
      would_sign: count("would_sign"),
    },
    subjects: outcomes,
  };
}

/** The report as plain lines: one per subject, then the counts. */
export function formatSignReport(report: SignSweepReport): string {
  const lines = report.subjects.map(
    (o) =>
      `${o.status.padEnd(10)} ${o.label} ${o.subject.slice(0, 19)}${o.reason ? ` (${o.reason})` : ""}${o.error ? `: ${o.error.message}` : ""}`,
  );
  const { completed, skipped, failed, would_sign } = report.counts;
  lines.push(
    report.dry_run
      ? `${report.target}: ${would_sign} to sign, ${skipped} already signed (dry run: nothing signed)`
      : `${report.target}: ${completed} completed, ${skipped} skipped, ${failed} failed`,
  );
  return lines.join("\n");
}
