import { describeError, type ExitCode, type Logger, silentLogger } from "@pkg/common";
import { sha256Digest, type Target } from "@pkg/oci";
import { canonicalJson } from "../push/manifest.js";
import { type CascadeStatus, type FoldOptions, rebuiltIndex, type UnrepairableReason } from "./audit.js";
import { type CascadeCheckReport, checkCascade } from "./check.js";
import { writeIndexChecked } from "./index-write.js";

/**
 * What became of one wrong alias:
 * - `written`: its index was rebuilt and read back as written;
 * - `raced`: another writer moved the tag between the check's read and the write (not written),
 *   or between the write and its read-back; either way the tag is not known to be right;
 * - `refused`: unrepairable (the reason says why), nothing written;
 * - `failed`: the write or a read failed (the error says why).
 */
export type RepairOutcome =
  | { tag: string; outcome: "written"; digest: string; verified: true }
  | { tag: string; outcome: "raced"; expected: string | null; live: string | null; wrote: boolean }
  | { tag: string; outcome: "refused"; reason: UnrepairableReason; detail: string }
  | { tag: string; outcome: "failed"; exit_code: ExitCode; error: string };

/** A wrong alias and what the repair writes (or, dry, would write) for it. */
export interface PlannedRepair {
  tag: string;
  status: Exclude<CascadeStatus, "ok">;
  /** What the tag holds now; null when missing. */
  observed_digest: string | null;
  /** The rebuilt index's digest; absent for a refused one. */
  index_digest?: string;
  /** The manifests the rebuilt index names. */
  referenced_digests: string[];
  refused?: UnrepairableReason;
}

export interface RepairReport {
  repository: string;
  dry_run: boolean;
  /** The check the repair started from. */
  check: CascadeCheckReport;
  planned: PlannedRepair[];
  /** One per planned alias (none in a dry run), in the same order. */
  outcomes: RepairOutcome[];
  /** The tags the repair moved (written): what an announce carries. */
  moved_tags: string[];
  /** Findings left: every planned alias in a dry run, else those raced, refused or failed. */
  remaining: number;
  /** Any alias failed. */
  failed: boolean;
}

export interface RepairOptions extends FoldOptions {
  dryRun?: boolean;
  log?: Logger;
  /** Told, once and before the first write, which tags the repair is about to write (never in a
   *  dry run, nor when there is nothing to write). */
  beforeWrites?: (tags: string[]) => Promise<void>;
}

/**
 * `pkg package cascade repair`: checks the repository, then rebuilds each wrong alias's index
 * from the fold (`rebuiltIndex`: entries without a package platform and the annotations kept),
 * one checked write per alias (see `writeIndexChecked`), in tag order. A dry run writes nothing.
 * Versions `options.incomplete` names are left out of the fold (see `FoldOptions`).
 */
export async function repairCascade(target: Target, options: RepairOptions = {}): Promise<RepairReport> {
  const log = options.log ?? silentLogger;
  const dryRun = options.dryRun === true;
  const { report, aliases } = await checkCascade(
    target,
    options.incomplete === undefined ? {} : { incomplete: options.incomplete },
  );
  const wrong = aliases.filter((a) => a.row.status !== "ok");
  const planned = wrong.map((alias) => {
    const { row } = alias;
    const status = row.status as PlannedRepair["status"];
    const base = {
      tag: row.tag,
      status,
      observed_digest: row.digest,
      referenced_digests: alias.expected.map((e) => e.digest),
    };
    if (row.unrepairable) return { plan: { ...base, refused: row.unrepairable.reason }, alias };
    const index = rebuiltIndex(alias);
    return { plan: { ...base, index_digest: sha256Digest(canonicalJson(index)) }, alias, index };
  });

  const outcomes: RepairOutcome[] = [];
  if (!dryRun) {
    const writing = planned.flatMap(({ plan, alias, index }) =>
      index === undefined || alias.row.unrepairable ? [] : [plan.tag],
    );
    if (writing.length > 0) await options.beforeWrites?.(writing);
    for (const { plan, alias, index } of planned) {
      const { row } = alias;
      if (index === undefined || row.unrepairable) {
        const reason = row.unrepairable ?? { reason: "would-empty-index" as const, detail: "" };
        outcomes.push({ tag: plan.tag, outcome: "refused", ...reason });
        log.warn(`${target.displayName}:${plan.tag} ${row.status}, not repaired: ${reason.detail}`);
        continue;
      }
      try {
        const write = await writeIndexChecked(target, plan.tag, row.digest, index);
        if (write.outcome === "written") {
          outcomes.push({ tag: plan.tag, outcome: "written", digest: write.digest, verified: true });
          log.info(`${target.displayName}:${plan.tag} ${row.status} -> ${write.digest.slice(0, 19)}`);
        } else {
          const { expected, live, wrote } = write;
          outcomes.push({ tag: plan.tag, outcome: "raced", expected, live, wrote });
          log.warn(
            `${target.displayName}:${plan.tag} moved under another writer ${wrote ? "after the write" : "since it was read; not written"} (now ${live ?? "absent"})`,
          );
        }
      } catch (error) {
        const { exitCode, line } = describeError(error);
        outcomes.push({ tag: plan.tag, outcome: "failed", exit_code: exitCode, error: line });
        log.warn(`${target.displayName}:${plan.tag} repair failed: ${line}`);
      }
    }
  }
  const moved = outcomes.flatMap((o) => (o.outcome === "written" ? [o.tag] : []));
  return {
    repository: target.displayName,
    dry_run: dryRun,
    check: report,
    planned: planned.map((p) => p.plan),
    outcomes,
    moved_tags: moved,
    remaining: dryRun ? planned.length : outcomes.filter((o) => o.outcome !== "written").length,
    failed: outcomes.some((o) => o.outcome === "failed"),
  };
}
