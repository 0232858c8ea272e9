/**
 * The announce branch of a package and what the next commit goes onto. Pure.
 *
 * One long-lived branch per package (not per tag): it outlives its requests. It is live while it
 * holds work not yet on the index's default branch (ahead of it, or diverged with its request still
 * open): the next commit is appended to it and the files are read from its head, so sequential
 * announces accumulate. Otherwise it is spent (its request was merged or squash-merged, or it never
 * existed): the next commit is based on the upstream default branch and the files are read there,
 * so that the next request does not conflict with what was merged.
 */

/** How the announce branch head relates to the default branch head. */
export type Relation = "identical" | "ahead" | "behind" | "diverged";

/** `indexbot-announce-<namespace>-<package>`: the name the index repository's bot knows. */
export function announceBranch(pkg: string): string {
  return `indexbot-announce-${pkg.replaceAll("/", "-")}`;
}

export function requestBody(pkg: string): string {
  return `Publisher-curated tag update for \`${pkg}\`.`;
}

export interface BranchState {
  /** Head of the default branch of the index repository. */
  mainHead: string;
  /** Head of the announce branch (in the fork when there is one); undefined when it does not exist. */
  branchHead: string | undefined;
  /** Of the branch head against mainHead; undefined when the branch does not exist. */
  relation: Relation | undefined;
  /** Whether a request from the branch is open. */
  openRequest: boolean;
}

export type CommitBase =
  /** Appended to the live branch: parent `head`, files read at `head`. */
  | { kind: "append"; head: string }
  /**
   * Based on the default branch: files read at `mainHead`. `previous` is the spent branch's head
   * (undefined when the branch is new) and `relation` its relation to mainHead.
   */
  | { kind: "reset"; mainHead: string; previous: string | undefined; relation: Relation | undefined };

export function isLive(state: BranchState): boolean {
  if (state.branchHead === undefined) return false;
  return state.relation === "ahead" || (state.relation === "diverged" && state.openRequest);
}

export function commitBase(state: BranchState): CommitBase {
  if (isLive(state) && state.branchHead !== undefined) return { kind: "append", head: state.branchHead };
  return { kind: "reset", mainHead: state.mainHead, previous: state.branchHead, relation: state.relation };
}

/** From ahead/behind counts (commits only on the branch, commits only on the default branch). */
export function relationOf(ahead: number, behind: number): Relation {
  if (ahead > 0) return behind > 0 ? "diverged" : "ahead";
  return behind > 0 ? "behind" : "identical";
}
