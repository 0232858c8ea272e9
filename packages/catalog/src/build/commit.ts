import { copyFileSync, linkSync, mkdirSync, renameSync, rmdirSync, unlinkSync } from "node:fs";
import { resolve, sep } from "node:path";

/** What moves an incremental build's stage into its output: every path but the staged files' is a
 *  site path. */
export interface CommitPlan {
  /** Staged files moved into place: site path, staged file (absolute). */
  moves: [path: string, staged: string][];
  /** Second names of files of the build: site path, site path of the file it names. */
  links: [path: string, from: string][];
  /** Files of the previous output no longer produced. */
  removals: string[];
}

/** Codes of a filesystem without hard links between these two names. */
const noLinkCodes = new Set(["EPERM", "ENOTSUP", "EXDEV", "EMLINK", "ENOSYS", "EOPNOTSUPP"]);

/** A hard link from `from` at `to`, else a copy; true when it linked (the identity is then `from`'s). */
export function linkOrCopy(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if (!noLinkCodes.has((error as NodeJS.ErrnoException).code ?? "")) throw error;
  }
  copyFileSync(from, to);
  return false;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/**
 * Applies `plan` to the output `root`: staged files renamed into place (a file is never seen
 * half-written), second names linked, removed files unlinked and the directories they leave empty
 * removed. Returns the site paths of second names that had to be copied (no hard links there).
 *
 * `redo` applies a plan that an interrupted build may have applied in part: a staged file already
 * moved, a name already linked or a file already removed is passed over.
 */
export function applyCommit(root: string, plan: CommitPlan, redo = false): string[] {
  const made = new Set<string>();
  const ensureParent = (path: string) => {
    const parent = resolve(root, path, "..");
    if (made.has(parent)) return;
    mkdirSync(parent, { recursive: true });
    made.add(parent);
  };
  for (const [path, staged] of plan.moves) {
    ensureParent(path);
    try {
      renameSync(staged, resolve(root, path));
    } catch (error) {
      if (!(redo && isMissing(error))) throw error;
    }
  }
  const copied: string[] = [];
  for (const [path, from] of plan.links) {
    ensureParent(path);
    const absolute = resolve(root, path);
    const temp = `${absolute}.pkg-catalog-${process.pid}`;
    try {
      if (!linkOrCopy(resolve(root, from), temp)) copied.push(path);
    } catch (error) {
      if (!(redo && isMissing(error))) throw error;
      continue;
    }
    renameSync(temp, absolute);
  }
  const emptied = new Set<string>();
  for (const path of plan.removals) {
    try {
      unlinkSync(resolve(root, path));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const at = path.lastIndexOf("/");
    if (at > 0) emptied.add(path.slice(0, at));
  }
  for (const dir of [...emptied].sort((a, b) => b.length - a.length)) removeEmpty(root, dir);
  return copied;
}

/** Removes `dir` (a site path) and its parents while they are empty. */
function removeEmpty(root: string, dir: string): void {
  for (let at = dir.length; at > 0; at = dir.lastIndexOf("/", at - 1)) {
    try {
      rmdirSync(resolve(root, dir.slice(0, at)));
    } catch {
      return;
    }
  }
}

/** Whether `staged` names a file inside `stage`. */
export function isInStage(stage: string, staged: string): boolean {
  return staged.startsWith(`${stage}${sep}`) && resolve(staged) === staged;
}
