import { readFileSync, renameSync, rmSync } from "node:fs";
import { ExitCode, PkgError, writeFileAtomicallySync } from "@pkg/common";
import { applyCommit, type CommitPlan, isInStage } from "./commit.js";
import { isSafeRelativePath } from "./site-writer.js";

/**
 * An update in place moves its changed files into the output one rename at a time: not atomic as a
 * set. Before the first rename it records what it is about to do (the journal, beside the memo in
 * the cache directory) and the memo of the output as it will be (pending); after the last it makes
 * that memo the memo and drops the journal. A build that finds a journal for its output finishes
 * that update first (every step of it can be done again), so a build stopped midway leaves an output
 * the next build completes, and no memo that describes a half-updated output.
 */
export interface CommitJournal {
  format: 1;
  /** The output (its real path). */
  out: string;
  /** The stage the moved files come from. */
  stage: string;
  plan: CommitPlan;
}

export function journalFile(memo: string): string {
  return `${memo.replace(/\.json$/, "")}.commit.json`;
}

/** The memo of the output as the update leaves it, until that update is done. */
export function pendingMemoFile(memo: string): string {
  return `${memo}.pending`;
}

export function writeJournal(file: string, journal: CommitJournal): void {
  writeFileAtomicallySync(file, JSON.stringify(journal));
}

/** Marks the update done: the pending memo becomes the memo (unless a stopped build did that
 *  already), the journal goes. */
export function finishJournal(memo: string): void {
  try {
    renameSync(pendingMemoFile(memo), memo);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  rmSync(journalFile(memo), { force: true });
}

const stageName = /\.stage-\d+-[0-9a-f]{12}$/;

function isValid(journal: CommitJournal, out: string): boolean {
  const { stage, plan } = journal;
  if (journal.format !== 1 || journal.out !== out || !stageName.test(stage ?? "")) return false;
  const safe = (path: unknown) => typeof path === "string" && isSafeRelativePath(path);
  return (
    plan.moves.every(
      ([path, staged]) => safe(path) && typeof staged === "string" && isInStage(stage, staged),
    ) &&
    plan.links.every(([path, from]) => safe(path) && safe(from)) &&
    plan.removals.every(safe)
  );
}

/**
 * Finishes the update of `out` (its real path) that a build stopped midway, when the journal next
 * to `memo` says there is one: true when it did. A journal that cannot be read or used is dropped
 * with the pending memo (the output then has no memo: the next build makes it anew).
 */
export function finishInterruptedCommit(memo: string, out: string): boolean {
  let journal: CommitJournal;
  try {
    journal = JSON.parse(readFileSync(journalFile(memo), "utf8")) as CommitJournal;
    if (!isValid(journal, out)) throw new Error("not a journal of this output");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    rmSync(journalFile(memo), { force: true });
    rmSync(pendingMemoFile(memo), { force: true });
    return false;
  }
  try {
    applyCommit(out, journal.plan, true);
    finishJournal(memo);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new PkgError(
      ExitCode.IoError,
      `cannot finish the update of ${out} that an earlier build left midway: ${code}`,
      { cause: error },
    );
  }
  rmSync(journal.stage, { recursive: true, force: true });
  return true;
}
