import { ExitCode, type Logger, PkgError } from "@pkg/common";
import { SPEC_BACKOFF, withRetries } from "@pkg/net";
import { type BranchState, type Relation, relationOf } from "./branch.js";
import { coordinateLabel, type ForgeCoordinate, type ForgeTarget } from "./coordinate.js";
import {
  type CommitOutcome,
  type CommitPlan,
  type ForgeApi,
  indexRepoNotFound,
  noDefaultHead,
  type RequestRef,
  type Snapshot,
} from "./forge-api.js";
import { type ApiAnswer, apiFailure, DETAIL_CAPABILITY, type ForgeHttp, parseJson } from "./forge-http.js";

interface RepoInfo {
  full_name: string;
  default_branch: string;
  fork?: boolean;
  parent?: { full_name: string };
  owner?: { login: string };
  permissions?: { push?: boolean };
}
interface RefInfo {
  object: { sha: string };
}
interface PullInfo {
  number: number;
  html_url: string;
}

/** Tries of the wait for a new fork to answer (GitHub creates forks asynchronously). */
const FORK_READY_RETRIES = 5;

const enc = encodeURIComponent;
const repoPath = (coordinate: ForgeCoordinate) =>
  `/repos/${enc(coordinate.namespace)}/${enc(coordinate.project)}`;
const filePath = (path: string) => path.split("/").map(enc).join("/");
const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * forgeone (GitHub's REST shapes): the git data API (blobs, trees, commits, refs) writes one commit
 * per announce, and the branch moves by a fast-forward-only ref update (`force: false`), which is
 * the compare-and-swap: a commit whose parent is no longer the branch head is not a fast-forward
 * and is refused (422). A spent branch that diverged from the default branch (squash-merged) gets a
 * commit whose first parent is the default branch head and whose second is the spent head, so the
 * update stays a fast-forward while the request's merge base becomes the default branch.
 */
export class ForgeoneApi implements ForgeApi {
  readonly #http: ForgeHttp;
  readonly #upstream: ForgeCoordinate;
  readonly #head: ForgeCoordinate;
  readonly #fork: ForgeCoordinate | undefined;
  readonly #log: Logger;
  #defaultBranch = "";

  constructor(http: ForgeHttp, target: ForgeTarget, log: Logger) {
    this.#http = http;
    this.#upstream = target.indexRepo;
    this.#fork = target.fork;
    this.#head = target.fork ?? target.indexRepo;
    this.#log = log;
  }

  async #repo(coordinate: ForgeCoordinate, signal?: AbortSignal): Promise<RepoInfo | undefined> {
    const answer = await this.#http.request({ path: repoPath(coordinate), signal });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw apiFailure(answer, `reading ${coordinateLabel(coordinate)}`);
    return parseJson<RepoInfo>(answer, `reading ${coordinateLabel(coordinate)}`);
  }

  /** The index repository, its default branch noted (exit 64 when it is not there). */
  async #upstreamRepo(signal?: AbortSignal): Promise<RepoInfo> {
    const upstream = await this.#repo(this.#upstream, signal);
    if (!upstream) {
      throw indexRepoNotFound(this.#upstream);
    }
    this.#defaultBranch = upstream.default_branch;
    return upstream;
  }

  async #mainHead(signal?: AbortSignal): Promise<string> {
    const mainHead = await this.#refHead(this.#upstream, this.#defaultBranch, signal);
    if (!mainHead) {
      throw noDefaultHead(this.#upstream, this.#defaultBranch);
    }
    return mainHead;
  }

  async committed(signal?: AbortSignal): Promise<Snapshot> {
    await this.#upstreamRepo(signal);
    return this.snapshot("upstream", await this.#mainHead(signal));
  }

  async prepare(signal?: AbortSignal): Promise<void> {
    const upstream = await this.#upstreamRepo(signal);
    if (!this.#fork) {
      if (upstream.permissions && upstream.permissions.push === false) {
        throw new PkgError(
          ExitCode.AuthRejected,
          `PKG_ANNOUNCE_TOKEN has no push access to ${coordinateLabel(this.#upstream)}; announce from a fork with --fork`,
        );
      }
      return;
    }
    const fork = (await this.#repo(this.#fork, signal)) ?? (await this.#createFork(this.#fork, signal));
    if (!fork.fork || !fork.parent || !sameName(fork.parent.full_name, upstream.full_name)) {
      throw new PkgError(
        ExitCode.Usage,
        `--fork ${this.#fork.text} is not a fork of ${coordinateLabel(this.#upstream)}`,
      );
    }
    if (fork.permissions && fork.permissions.push === false) {
      throw new PkgError(
        ExitCode.AuthRejected,
        `PKG_ANNOUNCE_TOKEN has no push access to ${coordinateLabel(this.#fork)}`,
      );
    }
    // best effort: brings the default branch's objects into the fork; commits never build on the fork's copy
    const sync = await this.#http.request({
      method: "POST",
      path: `${repoPath(this.#fork)}/merge-upstream`,
      body: { branch: this.#defaultBranch },
      signal,
    });
    if (sync.status !== 200)
      this.#log.info(`syncing ${coordinateLabel(this.#fork)} answered ${sync.status}; going on`);
  }

  async #createFork(fork: ForgeCoordinate, signal?: AbortSignal): Promise<RepoInfo> {
    const context = `forking ${coordinateLabel(this.#upstream)} to ${coordinateLabel(fork)}`;
    const user = await this.#http.expect({ path: "/user", signal }, [200], context);
    const login = parseJson<{ login: string }>(user, context).login;
    const body: Record<string, unknown> = { name: fork.project, default_branch_only: true };
    if (!sameName(login, fork.namespace)) body.organization = fork.namespace;
    const created = await this.#http.request({
      method: "POST",
      path: `${repoPath(this.#upstream)}/forks`,
      body,
      signal,
    });
    if (created.status === 403 || created.status === 422) {
      const failure = apiFailure(created, context);
      throw new PkgError(ExitCode.Unsupported, `${failure.message}; the fork cannot be made`, {
        detail: DETAIL_CAPABILITY,
      });
    }
    if (created.status !== 202 && created.status !== 201 && created.status !== 200) {
      throw apiFailure(created, context);
    }
    this.#log.info(`created fork ${coordinateLabel(fork)}`);
    const ready = await withRetries<RepoInfo | undefined>(
      { ...SPEC_BACKOFF, retries: FORK_READY_RETRIES },
      () => this.#repo(fork, signal),
      { isRetryableValue: (repo) => repo === undefined, ...(signal ? { signal } : {}) },
    );
    if (!ready) throw new PkgError(ExitCode.Unavailable, `${context}: the new fork did not appear`);
    return ready;
  }

  async #refHead(
    coordinate: ForgeCoordinate,
    branch: string,
    signal?: AbortSignal,
  ): Promise<string | undefined> {
    const context = `reading branch ${branch} of ${coordinateLabel(coordinate)}`;
    const answer = await this.#http.request({
      path: `${repoPath(coordinate)}/git/ref/heads/${filePath(branch)}`,
      signal,
    });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw apiFailure(answer, context);
    return parseJson<RefInfo>(answer, context).object.sha;
  }

  #headLabel(branch: string): string {
    return `${this.#head.namespace}:${branch}`;
  }

  async #findOpen(branch: string, signal?: AbortSignal): Promise<RequestRef | undefined> {
    const context = `listing pull requests of ${coordinateLabel(this.#upstream)}`;
    const answer = await this.#http.expect(
      {
        path: `${repoPath(this.#upstream)}/pulls`,
        query: { state: "open", head: this.#headLabel(branch), base: this.#defaultBranch, per_page: 100 },
        signal,
      },
      [200],
      context,
    );
    const pulls = parseJson<PullInfo[]>(answer, context);
    const pull = Array.isArray(pulls) ? pulls[0] : undefined;
    return pull ? { url: pull.html_url, number: pull.number } : undefined;
  }

  async branchState(
    branch: string,
    signal?: AbortSignal,
  ): Promise<BranchState & { open: RequestRef | undefined }> {
    const mainHead = await this.#mainHead(signal);
    const branchHead = await this.#refHead(this.#head, branch, signal);
    let relation: Relation | undefined;
    if (branchHead === mainHead) relation = "identical";
    else if (branchHead !== undefined) {
      const context = `comparing ${branch} with ${this.#defaultBranch}`;
      const answer = await this.#http.expect(
        { path: `${repoPath(this.#upstream)}/compare/${mainHead}...${enc(this.#headLabel(branch))}`, signal },
        [200],
        context,
      );
      const compared = parseJson<{ ahead_by: number; behind_by: number }>(answer, context);
      relation = relationOf(compared.ahead_by, compared.behind_by);
    }
    const open = await this.#findOpen(branch, signal);
    return { mainHead, branchHead, relation, openRequest: open !== undefined, open };
  }

  snapshot(repo: "upstream" | "head", sha: string): Snapshot {
    const coordinate = repo === "head" ? this.#head : this.#upstream;
    const cache = new Map<string, Promise<Uint8Array | undefined>>();
    const http = this.#http;
    const read = async (path: string, signal?: AbortSignal): Promise<Uint8Array | undefined> => {
      const context = `reading ${path} of ${coordinateLabel(coordinate)} at ${sha.slice(0, 12)}`;
      const answer = await http.request({
        path: `${repoPath(coordinate)}/contents/${filePath(path)}`,
        query: { ref: sha },
        accept: "application/vnd.github.raw+json",
        signal,
      });
      if (answer.status === 404) return undefined;
      if (answer.status !== 200) throw apiFailure(answer, context);
      return new Uint8Array(answer.body);
    };
    return {
      at: { repo, sha },
      read(path, signal) {
        let found = cache.get(path);
        if (!found) {
          found = read(path, signal);
          cache.set(path, found);
          found.catch(() => cache.delete(path));
        }
        return found;
      },
      lastCommitId: () => undefined,
    };
  }

  async commit(plan: CommitPlan, signal?: AbortSignal): Promise<CommitOutcome> {
    const repo = repoPath(this.#head);
    const context = `committing to ${plan.branch} of ${coordinateLabel(this.#head)}`;
    const post = async (path: string, body: unknown) => {
      const answer = await this.#http.expect(
        { method: "POST", path: `${repo}${path}`, body, signal },
        [201],
        context,
      );
      return parseJson<{ sha: string }>(answer, context).sha;
    };
    const base = plan.base;
    const parents =
      base.kind === "append"
        ? [base.head]
        : base.relation === "diverged" && base.previous !== undefined
          ? [base.mainHead, base.previous]
          : [base.mainHead];
    const [first] = parents;
    const baseCommit = await this.#http.expect(
      { path: `${repo}/git/commits/${first}`, signal },
      [200],
      context,
    );
    const baseTree = parseJson<{ tree: { sha: string } }>(baseCommit, context).tree.sha;
    const entries = [];
    for (const file of plan.files) {
      const sha = await post("/git/blobs", {
        content: Buffer.from(file.content).toString("base64"),
        encoding: "base64",
      });
      entries.push({ path: file.path, mode: "100644", type: "blob", sha });
    }
    const tree = await post("/git/trees", { base_tree: baseTree, tree: entries });
    const sha = await post("/git/commits", { message: plan.message, tree, parents });
    const exists = base.kind === "append" || base.previous !== undefined;
    const moved: ApiAnswer = exists
      ? await this.#http.request({
          method: "PATCH",
          path: `${repo}/git/refs/heads/${filePath(plan.branch)}`,
          body: { sha, force: false },
          signal,
        })
      : await this.#http.request({
          method: "POST",
          path: `${repo}/git/refs`,
          body: { ref: `refs/heads/${plan.branch}`, sha },
          signal,
        });
    if (moved.status === 200 || moved.status === 201) return { written: true, sha };
    // 422: not a fast-forward of the head we read, or the branch was created meanwhile
    if (moved.status === 422) return { written: false, reason: `${moved.what} answered 422` };
    throw apiFailure(moved, context);
  }

  async openRequest(branch: string, title: string, body: string, signal?: AbortSignal): Promise<RequestRef> {
    const context = `opening a pull request on ${coordinateLabel(this.#upstream)}`;
    const answer = await this.#http.request({
      method: "POST",
      path: `${repoPath(this.#upstream)}/pulls`,
      body: { title, head: this.#headLabel(branch), base: this.#defaultBranch, body },
      signal,
    });
    if (answer.status === 201) {
      const pull = parseJson<PullInfo>(answer, context);
      return { url: pull.html_url, number: pull.number };
    }
    if (answer.status === 422) {
      // another announce opened it meanwhile: reuse, never duplicate
      const open = await this.#findOpen(branch, signal);
      if (open) return open;
    }
    throw apiFailure(answer, context);
  }
}
