import { ExitCode, PkgError } from "@pkg/common";
import type { BranchState, CommitBase } from "./branch.js";
import { coordinateLabel, type ForgeCoordinate } from "./coordinate.js";

/** An open pull or merge request. */
export interface RequestRef {
  url: string;
  number: number;
}

/** The index repository's files at one commit, read on demand and kept. */
export interface Snapshot {
  /** Which repository (`head`: the fork when there is one) and commit. */
  readonly at: { repo: "upstream" | "head"; sha: string };
  read(path: string, signal?: AbortSignal): Promise<Uint8Array | undefined>;
  /** forgetwo: the commit that last changed a file read here (its compare-and-swap token). */
  lastCommitId(path: string): string | undefined;
}

export interface FileWrite {
  path: string;
  content: Uint8Array;
  /** Whether the file exists in the commit the new one is based on. */
  exists: boolean;
}

export interface CommitPlan {
  branch: string;
  message: string;
  files: FileWrite[];
  base: CommitBase;
  /** Where the files were read (for forgetwo's per-file last commit ids). */
  snapshot: Snapshot;
}

/** A commit written, or the race for the branch lost (another writer moved it first). */
export type CommitOutcome = { written: true; sha: string } | { written: false; reason: string };

/**
 * One forge's REST shapes, as the API transport uses them. `prepare` runs once; the rest may run
 * again after a lost race.
 */
export interface ForgeApi {
  /** Resolves the index repository (and fork: found or created, then synced), checks push access. */
  prepare(signal?: AbortSignal): Promise<void>;
  /** The index as committed: the upstream default branch's head, read only (a dry run; no `prepare`). */
  committed(signal?: AbortSignal): Promise<Snapshot>;
  /** The default branch's head, the announce branch's head and relation, whether a request is open. */
  branchState(branch: string, signal?: AbortSignal): Promise<BranchState & { open: RequestRef | undefined }>;
  snapshot(repo: "upstream" | "head", sha: string): Snapshot;
  /** One commit carrying every file, the branch moved by compare-and-swap. */
  commit(plan: CommitPlan, signal?: AbortSignal): Promise<CommitOutcome>;
  /** Opens the request from the branch; an open one found meanwhile is returned instead (never a duplicate). */
  openRequest(branch: string, title: string, body: string, signal?: AbortSignal): Promise<RequestRef>;
}

/** The index repository does not exist, or the token cannot see it (both forges answer 404). */
export function indexRepoNotFound(upstream: ForgeCoordinate): PkgError {
  return new PkgError(
    ExitCode.Usage,
    `index repository ${coordinateLabel(upstream)} not found (or not visible to PKG_ANNOUNCE_TOKEN)`,
  );
}

/** The default branch has no commit to base an announce on. */
export function noDefaultHead(upstream: ForgeCoordinate, branch: string): PkgError {
  return new PkgError(
    ExitCode.Failed,
    `the default branch ${branch} of ${coordinateLabel(upstream)} has no head to commit onto`,
  );
}
