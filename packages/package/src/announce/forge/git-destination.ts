import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rootCertificates } from "node:tls";
import { ExitCode, type Logger, PkgError } from "@pkg/common";
import { extraCasFromEnv, SPEC_BACKOFF, withRetries } from "@pkg/net";
import type { AnnounceDestination, PublishResult, Regenerate } from "../destination.js";
import { RACE_RETRIES } from "./api-destination.js";
import { announceBranch, requestBody } from "./branch.js";
import { coordinateLabel, type ForgeCoordinate, gitRemoteUrl } from "./coordinate.js";
import { credentialEnvironment, type GitCredential, resolveGitCredential } from "./git-credential.js";
import { gitFailure, isLostRace } from "./git-errors.js";
import { type GitRunner, gitRunner } from "./git-run.js";

export interface GitDestinationOptions {
  indexRepo: ForgeCoordinate;
  /** `<namespace>/<package>`: names the branch. */
  pkg: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  raceRetries?: number;
}

class RaceLost extends Error {}

/** Variables of the caller's environment that must not steer the git children. */
const DROPPED = [
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_CONFIG_PARAMETERS",
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
];

function mergeRequestUrl(stderr: string, branch: string): { url: string; number: number } | null {
  const lines = stderr.split(/\r?\n/).map((line) => line.replace(/^remote:\s*/, "").trim());
  const at = lines.indexOf(`View merge request for ${branch}:`);
  const url = at >= 0 ? lines[at + 1] : undefined;
  const number = url?.match(/\/merge_requests\/([0-9]+)\/?$/)?.[1];
  return url && number ? { url, number: Number(number) } : null;
}

/**
 * The git transport (forgetwo only, never with a fork): a scratch repository fetches the index's
 * default branch and the package's announce branch, commits the change with git plumbing (no
 * checkout), and makes one authenticated push carrying the merge-request push options, so that
 * the forge opens the merge request, or updates the open one. The push is a compare-and-swap
 * (`--force-with-lease` on the head that was read); a lost race fetches, regenerates and pushes
 * again. The credential reaches git through a helper scoped to the index host, configured in the
 * children's environment: never in the remote URL, the arguments or `.git/config`.
 *
 * Without the forge's API (a job token cannot read it) the branch is judged from git alone: it is
 * live when it holds work whose change is not on the default branch yet (not merged, and no commit
 * there carries the same patch, as a squash merge does); otherwise the commit is based on the
 * default branch.
 */
export class GitDestination implements AnnounceDestination {
  readonly name: string;
  readonly writesCatalogIndex = false;
  readonly #options: GitDestinationOptions;

  constructor(options: GitDestinationOptions) {
    this.#options = options;
    this.name = `forgetwo ${coordinateLabel(options.indexRepo)} (git)`;
  }

  async publish(regenerate: Regenerate, message: string, signal?: AbortSignal): Promise<PublishResult> {
    const { log } = this.#options;
    return this.#inScratch(signal, async (git, credential, work) => {
      const retries = this.#options.raceRetries ?? RACE_RETRIES;
      try {
        return await withRetries(
          { ...SPEC_BACKOFF, retries },
          () => this.#attempt(git, credential, regenerate, message, join(work, "announce.index")),
          {
            isRetryable: (error) => error instanceof RaceLost,
            onRetry: (event) =>
              log.info(
                `${this.name}: another announce moved the branch first; fetching again, try ${event.attempt + 1} of ${event.total}`,
              ),
            ...(signal ? { signal } : {}),
          },
        );
      } catch (error) {
        if (error instanceof RaceLost) {
          throw new PkgError(
            ExitCode.Transient,
            `${this.name}: another announce moved ${announceBranch(this.#options.pkg)} first on every one of ${retries + 1} tries`,
          );
        }
        throw error;
      }
    });
  }

  async preview(regenerate: Regenerate, signal?: AbortSignal): Promise<"updated" | "unchanged"> {
    return this.#inScratch(signal, async (git, credential) => {
      const { main } = await this.#fetch(git, credential, false);
      const mainHead = (await git.ok(["rev-parse", `refs/remotes/origin/${main}`])).trim();
      const read = async (path: string) => readBlob(git, mainHead, path);
      const change = await regenerate(read);
      if (change.status === "unchanged") return "unchanged";
      for (const [path, content] of change.files) {
        const current = await read(path);
        if (current === undefined || !Buffer.from(current).equals(content)) return "updated";
      }
      return "unchanged";
    });
  }

  /** Runs `body` in a scratch repository whose remote is the index repository, the credential
   *  handed to git for the index host only; the scratch directory is removed after. */
  async #inScratch<T>(
    signal: AbortSignal | undefined,
    body: (git: GitRunner, credential: GitCredential, work: string) => Promise<T>,
  ): Promise<T> {
    const { indexRepo, env } = this.#options;
    const credential = await resolveGitCredential(indexRepo.host, env);
    const work = await mkdtemp(join(tmpdir(), "pkg-announce-"));
    try {
      const childEnv: NodeJS.ProcessEnv = { ...env };
      for (const name of DROPPED) delete childEnv[name];
      Object.assign(childEnv, credentialEnvironment(indexRepo.host, credential), {
        GIT_TERMINAL_PROMPT: "0",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        GIT_AUTHOR_NAME: "pkg announce",
        GIT_AUTHOR_EMAIL: "announce@pkg.invalid",
        GIT_COMMITTER_NAME: "pkg announce",
        GIT_COMMITTER_EMAIL: "announce@pkg.invalid",
        LC_ALL: "C",
      });
      const extra = await extraCasFromEnv(env);
      if (extra.length > 0) {
        // git trusts one bundle: the platform's roots plus the extra CAs our HTTP client trusts
        const bundle = join(work, "ca-bundle.pem");
        await writeFile(bundle, `${[...rootCertificates, ...extra].join("\n")}\n`);
        childEnv.GIT_SSL_CAINFO = bundle;
      }
      const repo = join(work, "index");
      const init = gitRunner(work, childEnv, signal);
      await init.ok(["init", "--quiet", repo]);
      const git = gitRunner(repo, childEnv, signal);
      await git.ok(["remote", "add", "origin", gitRemoteUrl(indexRepo)]);
      return await body(git, credential, work);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** Lists the index repository's default branch and the announce branch, and fetches the default
   *  branch (and the announce branch when `withBranch` and it exists). */
  async #fetch(
    git: GitRunner,
    credential: GitCredential,
    withBranch: boolean,
  ): Promise<{ main: string; branch: string; remote: ReturnType<typeof parseLsRemote> }> {
    const branch = announceBranch(this.#options.pkg);
    const listed = await git.run(["ls-remote", "--symref", "origin", "HEAD", `refs/heads/${branch}`]);
    if (listed.code !== 0) {
      throw gitFailure(listed.stderr, `reading ${coordinateLabel(this.#options.indexRepo)}`, credential);
    }
    const remote = parseLsRemote(listed.stdout.toString("utf8"));
    if (!remote.defaultBranch) {
      throw new PkgError(
        ExitCode.Failed,
        `${this.name}: the index repository has no default branch to commit onto`,
      );
    }
    const main = remote.defaultBranch;
    const refspecs = [`+refs/heads/${main}:refs/remotes/origin/${main}`];
    if (withBranch && remote.heads.has(branch))
      refspecs.push(`+refs/heads/${branch}:refs/remotes/origin/${branch}`);
    const fetched = await git.run(["fetch", "--quiet", "--no-tags", "origin", ...refspecs]);
    if (fetched.code !== 0) {
      // the branch went away between the listing and the fetch: another writer is at work
      if (/couldn't find remote ref/i.test(fetched.stderr)) throw new RaceLost();
      throw gitFailure(fetched.stderr, `fetching ${coordinateLabel(this.#options.indexRepo)}`, credential);
    }
    return { main, branch, remote };
  }

  async #attempt(
    git: GitRunner,
    credential: GitCredential,
    regenerate: Regenerate,
    message: string,
    indexFile: string,
  ): Promise<PublishResult> {
    const { pkg, log } = this.#options;
    const { main, branch, remote } = await this.#fetch(git, credential, true);
    const mainHead = (await git.ok(["rev-parse", `refs/remotes/origin/${main}`])).trim();
    const branchHead = remote.heads.has(branch)
      ? (await git.ok(["rev-parse", `refs/remotes/origin/${branch}`])).trim()
      : undefined;
    const live = branchHead !== undefined && (await holdsPendingWork(git, mainHead, branchHead));
    const base = live && branchHead ? branchHead : mainHead;
    const read = async (path: string) => readBlob(git, base, path);
    const change = await regenerate(read);
    const files: Array<[string, Uint8Array]> = [];
    if (change.status === "updated") {
      for (const [path, content] of change.files) {
        const current = await read(path);
        if (current === undefined || !Buffer.from(current).equals(content)) files.push([path, content]);
      }
    }
    if (files.length === 0) {
      return { status: "unchanged", requestUrl: null, requestNumber: null, writtenPaths: [] };
    }
    const indexEnv = { GIT_INDEX_FILE: indexFile };
    await git.ok(["read-tree", base], { env: indexEnv });
    for (const [path, content] of files) {
      const blob = (await git.ok(["hash-object", "-w", "--stdin"], { input: content })).trim();
      await git.ok(["update-index", "--add", "--cacheinfo", `100644,${blob},${path}`], { env: indexEnv });
    }
    const tree = (await git.ok(["write-tree"], { env: indexEnv })).trim();
    const commit = (
      await git.ok(["commit-tree", tree, "-p", base, "-F", "-"], { input: `${message}\n` })
    ).trim();
    const pushed = await git.run([
      "push",
      "--porcelain",
      `--force-with-lease=refs/heads/${branch}:${branchHead ?? ""}`,
      "-o",
      "merge_request.create",
      "-o",
      `merge_request.target=${main}`,
      "-o",
      `merge_request.title=${message}`,
      "-o",
      `merge_request.description=${requestBody(pkg)}`,
      "origin",
      `${commit}:refs/heads/${branch}`,
    ]);
    if (pushed.code !== 0) {
      if (isLostRace(`${pushed.stdout.toString("utf8")}\n${pushed.stderr}`)) throw new RaceLost();
      throw gitFailure(pushed.stderr, `pushing ${branch}`, credential);
    }
    log.info(`${this.name}: pushed ${files.length} file(s) to ${branch} (${commit.slice(0, 12)})`);
    const request = mergeRequestUrl(pushed.stderr, branch);
    return {
      status: "updated",
      requestUrl: request?.url ?? null,
      requestNumber: request?.number ?? null,
      writtenPaths: [],
    };
  }
}

/** `ls-remote --symref` output: the default branch (HEAD's target) and the branch heads listed. */
export function parseLsRemote(text: string): {
  defaultBranch: string | undefined;
  heads: Map<string, string>;
} {
  let defaultBranch: string | undefined;
  const heads = new Map<string, string>();
  for (const line of text.split("\n")) {
    const symref = line.match(/^ref: refs\/heads\/(\S+)\tHEAD$/);
    if (symref?.[1]) defaultBranch = symref[1];
    const head = line.match(/^([0-9a-f]{40,64})\trefs\/heads\/(\S+)$/);
    if (head?.[1] && head[2]) heads.set(head[2], head[1]);
  }
  return { defaultBranch, heads };
}

async function readBlob(git: GitRunner, commit: string, path: string): Promise<Uint8Array | undefined> {
  const listed = (await git.ok(["ls-tree", "-z", commit, "--", path])).split("\0")[0] ?? "";
  const match = listed.match(/^[0-7]+ blob ([0-9a-f]+)\t/);
  if (!match?.[1]) return undefined;
  const result = await git.run(["cat-file", "blob", match[1]]);
  if (result.code !== 0)
    throw new PkgError(ExitCode.Failed, `git cat-file failed for ${path}: ${result.stderr.trim()}`);
  return new Uint8Array(result.stdout);
}

/** The patch ids of a `git diff`/`git log -p` text (one per commit, or one for a bare diff). */
async function patchIds(git: GitRunner, patch: Buffer): Promise<Set<string>> {
  if (patch.length === 0) return new Set();
  const out = await git.ok(["patch-id", "--stable"], { input: patch });
  return new Set(
    out
      .split("\n")
      .map((line) => line.split(" ")[0])
      .filter((id): id is string => !!id),
  );
}

/**
 * Whether the announce branch holds work the default branch lacks: not an ancestor of it, with a
 * change since their merge base, and no commit on the default branch since then carrying the same
 * patch (a squash merge of the branch does; every commit of a rebase merge does).
 */
export async function holdsPendingWork(
  git: GitRunner,
  mainHead: string,
  branchHead: string,
): Promise<boolean> {
  if (branchHead === mainHead) return false;
  const ancestor = await git.run(["merge-base", "--is-ancestor", branchHead, mainHead]);
  if (ancestor.code === 0) return false;
  const mergeBase = (await git.ok(["merge-base", mainHead, branchHead])).trim();
  const paths = (await git.ok(["diff", "--name-only", "-z", mergeBase, branchHead]))
    .split("\0")
    .filter(Boolean);
  if (paths.length === 0) return false;
  if (mergeBase === mainHead) return true;
  const onMain = await patchIds(
    git,
    (await git.run(["log", "-p", "--no-color", "--full-index", `${mergeBase}..${mainHead}`, "--", ...paths]))
      .stdout,
  );
  if (onMain.size === 0) return true;
  const squash = await patchIds(
    git,
    (await git.run(["diff", "--no-color", "--full-index", mergeBase, branchHead, "--", ...paths])).stdout,
  );
  if ([...squash].some((id) => onMain.has(id))) return false;
  // a rebase merge: every commit of the branch has its twin on the default branch
  const cherry = await git.ok(["cherry", mainHead, branchHead, mergeBase]);
  const marks = cherry.split("\n").filter(Boolean);
  return !marks.every((line) => line.startsWith("-"));
}
