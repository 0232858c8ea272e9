import { ExitCode, type Logger, PkgError } from "@pkg/common";
import { SPEC_BACKOFF, withRetries } from "@pkg/net";
import { type BranchState, type Relation, relationOf } from "./branch.js";
import { coordinateLabel, type ForgeCoordinate, type ForgeTarget, projectPath } from "./coordinate.js";
import {
  type CommitOutcome,
  type CommitPlan,
  type ForgeApi,
  indexRepoNotFound,
  noDefaultHead,
  type RequestRef,
  type Snapshot,
} from "./forge-api.js";
import { apiFailure, apiMessage, DETAIL_CAPABILITY, type ForgeHttp, parseJson } from "./forge-http.js";

interface AccessInfo {
  access_level?: number;
}
interface ProjectInfo {
  id: number;
  path_with_namespace: string;
  default_branch: string;
  import_status?: string;
  forked_from_project?: { id: number } | null;
  permissions?: { project_access?: AccessInfo | null; group_access?: AccessInfo | null };
}
interface MergeRequestInfo {
  iid: number;
  web_url: string;
  source_project_id?: number;
}

/** Access level that may push to an unprotected branch (Developer). */
const DEVELOPER = 30;
const FORK_READY_RETRIES = 5;
/** GitLab's answers (400) to a commit whose base moved: the compare-and-swap lost. */
const RACE_MESSAGES = /has changed since|already exists|doesn't exist|does not exist/i;

const enc = encodeURIComponent;
const byPath = (coordinate: ForgeCoordinate) => `/projects/${enc(projectPath(coordinate))}`;
const byId = (id: number) => `/projects/${id}`;

/**
 * forgetwo (GitLab's REST shapes): one atomic commit with actions per announce. GitLab has no
 * compare-and-swap on a branch ref; an append carries each updated file's `last_commit_id` (refused
 * when another commit changed that file meanwhile) and creates files that must not exist yet
 * (refused when another writer created them). A spent branch is reset onto the upstream default
 * branch (`start_sha`, `force`), its head checked just before and after the write.
 */
export class ForgetwoApi implements ForgeApi {
  readonly #http: ForgeHttp;
  readonly #upstream: ForgeCoordinate;
  readonly #fork: ForgeCoordinate | undefined;
  readonly #log: Logger;
  #upstreamId = 0;
  #headId = 0;
  #defaultBranch = "";

  constructor(http: ForgeHttp, target: ForgeTarget, log: Logger) {
    this.#http = http;
    this.#upstream = target.indexRepo;
    this.#fork = target.fork;
    this.#log = log;
  }

  async #project(coordinate: ForgeCoordinate, signal?: AbortSignal): Promise<ProjectInfo | undefined> {
    const answer = await this.#http.request({ path: byPath(coordinate), signal });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw apiFailure(answer, `reading ${coordinateLabel(coordinate)}`);
    return parseJson<ProjectInfo>(answer, `reading ${coordinateLabel(coordinate)}`);
  }

  #checkPush(project: ProjectInfo, coordinate: ForgeCoordinate, hint: string): void {
    const permissions = project.permissions;
    if (!permissions) return;
    const level = Math.max(
      permissions.project_access?.access_level ?? 0,
      permissions.group_access?.access_level ?? 0,
    );
    if (level < DEVELOPER) {
      throw new PkgError(
        ExitCode.AuthRejected,
        `PKG_ANNOUNCE_TOKEN has no push access to ${coordinateLabel(coordinate)}${hint}`,
      );
    }
  }

  /** The index project, its id and default branch noted (exit 64 when it is not there). */
  async #upstreamProject(signal?: AbortSignal): Promise<ProjectInfo> {
    const upstream = await this.#project(this.#upstream, signal);
    if (!upstream) {
      throw indexRepoNotFound(this.#upstream);
    }
    this.#upstreamId = upstream.id;
    this.#headId = upstream.id;
    this.#defaultBranch = upstream.default_branch;
    return upstream;
  }

  async #mainHead(signal?: AbortSignal): Promise<string> {
    const mainHead = await this.#branchHead(this.#upstreamId, this.#defaultBranch, signal);
    if (!mainHead) {
      throw noDefaultHead(this.#upstream, this.#defaultBranch);
    }
    return mainHead;
  }

  async committed(signal?: AbortSignal): Promise<Snapshot> {
    await this.#upstreamProject(signal);
    return this.snapshot("upstream", await this.#mainHead(signal));
  }

  async prepare(signal?: AbortSignal): Promise<void> {
    const upstream = await this.#upstreamProject(signal);
    if (!this.#fork) {
      this.#checkPush(upstream, this.#upstream, "; announce from a fork with --fork");
      return;
    }
    const fork = (await this.#project(this.#fork, signal)) ?? (await this.#createFork(this.#fork, signal));
    if (fork.forked_from_project?.id !== upstream.id) {
      throw new PkgError(
        ExitCode.Usage,
        `--fork ${this.#fork.text} is not a fork of ${coordinateLabel(this.#upstream)}`,
      );
    }
    this.#checkPush(fork, this.#fork, "");
    this.#headId = fork.id;
  }

  async #createFork(fork: ForgeCoordinate, signal?: AbortSignal): Promise<ProjectInfo> {
    const context = `forking ${coordinateLabel(this.#upstream)} to ${coordinateLabel(fork)}`;
    const created = await this.#http.request({
      method: "POST",
      path: `${byId(this.#upstreamId)}/fork`,
      body: { namespace_path: fork.namespace, path: fork.project, name: fork.project },
      signal,
    });
    if (created.status === 403) {
      const failure = apiFailure(created, context);
      throw new PkgError(ExitCode.Unsupported, `${failure.message}; the fork cannot be made`, {
        detail: DETAIL_CAPABILITY,
      });
    }
    if (created.status !== 201 && created.status !== 202) throw apiFailure(created, context);
    this.#log.info(`created fork ${coordinateLabel(fork)}`);
    const pending = (project: ProjectInfo | undefined) =>
      project === undefined || project.import_status === "scheduled" || project.import_status === "started";
    const ready = await withRetries<ProjectInfo | undefined>(
      { ...SPEC_BACKOFF, retries: FORK_READY_RETRIES },
      () => this.#project(fork, signal),
      { isRetryableValue: pending, ...(signal ? { signal } : {}) },
    );
    if (!ready || pending(ready))
      throw new PkgError(ExitCode.Unavailable, `${context}: the new fork is not ready`);
    return ready;
  }

  async #branchHead(projectId: number, branch: string, signal?: AbortSignal): Promise<string | undefined> {
    const context = `reading branch ${branch}`;
    const answer = await this.#http.request({
      path: `${byId(projectId)}/repository/branches/${enc(branch)}`,
      signal,
    });
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw apiFailure(answer, context);
    return parseJson<{ commit: { id: string } }>(answer, context).commit.id;
  }

  /** Commits reachable from `to` (in project `toId`) and not from `from` (in `fromId`). */
  async #commitsBetween(fromId: number, from: string, toId: number, to: string, signal?: AbortSignal) {
    const context = `comparing ${from.slice(0, 12)} with ${to.slice(0, 12)}`;
    const answer = await this.#http.expect(
      {
        path: `${byId(toId)}/repository/compare`,
        query: {
          from,
          to,
          straight: "false",
          ...(fromId === toId ? {} : { from_project_id: fromId }),
        },
        signal,
      },
      [200],
      context,
    );
    const compared = parseJson<{ commits?: unknown[] }>(answer, context);
    return Array.isArray(compared.commits) ? compared.commits.length : 0;
  }

  async #findOpen(branch: string, signal?: AbortSignal): Promise<RequestRef | undefined> {
    const context = `listing merge requests of ${coordinateLabel(this.#upstream)}`;
    const answer = await this.#http.expect(
      {
        path: `${byId(this.#upstreamId)}/merge_requests`,
        query: {
          state: "opened",
          source_branch: branch,
          target_branch: this.#defaultBranch,
          source_project_id: this.#headId,
          per_page: 100,
        },
        signal,
      },
      [200],
      context,
    );
    const list = parseJson<MergeRequestInfo[]>(answer, context);
    const found = Array.isArray(list)
      ? list.find((mr) => mr.source_project_id === undefined || mr.source_project_id === this.#headId)
      : undefined;
    return found ? { url: found.web_url, number: found.iid } : undefined;
  }

  async branchState(
    branch: string,
    signal?: AbortSignal,
  ): Promise<BranchState & { open: RequestRef | undefined }> {
    const mainHead = await this.#mainHead(signal);
    const branchHead = await this.#branchHead(this.#headId, branch, signal);
    let relation: Relation | undefined;
    if (branchHead === mainHead) relation = "identical";
    else if (branchHead !== undefined) {
      const ahead = await this.#commitsBetween(this.#upstreamId, mainHead, this.#headId, branchHead, signal);
      const behind = await this.#commitsBetween(this.#headId, branchHead, this.#upstreamId, mainHead, signal);
      relation = relationOf(ahead, behind);
    }
    const open = await this.#findOpen(branch, signal);
    return { mainHead, branchHead, relation, openRequest: open !== undefined, open };
  }

  snapshot(repo: "upstream" | "head", sha: string): Snapshot {
    const projectId = repo === "head" ? this.#headId : this.#upstreamId;
    const files = new Map<string, Promise<{ content: Uint8Array; lastCommitId: string } | undefined>>();
    const known = new Map<string, string>();
    const http = this.#http;
    const fetchFile = async (path: string, signal?: AbortSignal) => {
      const context = `reading ${path} at ${sha.slice(0, 12)}`;
      const answer = await http.request({
        path: `${byId(projectId)}/repository/files/${enc(path)}`,
        query: { ref: sha },
        signal,
      });
      if (answer.status === 404) return undefined;
      if (answer.status !== 200) throw apiFailure(answer, context);
      const file = parseJson<{ content: string; encoding?: string; last_commit_id: string }>(answer, context);
      const content =
        file.encoding === "text" ? Buffer.from(file.content, "utf8") : Buffer.from(file.content, "base64");
      known.set(path, file.last_commit_id);
      return { content: new Uint8Array(content), lastCommitId: file.last_commit_id };
    };
    return {
      at: { repo, sha },
      async read(path, signal) {
        let found = files.get(path);
        if (!found) {
          found = fetchFile(path, signal);
          files.set(path, found);
          found.catch(() => files.delete(path));
        }
        return (await found)?.content;
      },
      lastCommitId: (path) => known.get(path),
    };
  }

  async commit(plan: CommitPlan, signal?: AbortSignal): Promise<CommitOutcome> {
    const context = `committing to ${plan.branch}`;
    const base = plan.base;
    const actions = plan.files.map((file) => {
      const lastCommitId =
        base.kind === "append" && file.exists ? plan.snapshot.lastCommitId(file.path) : undefined;
      return {
        action: file.exists ? "update" : "create",
        file_path: file.path,
        content: Buffer.from(file.content).toString("base64"),
        encoding: "base64",
        ...(lastCommitId === undefined ? {} : { last_commit_id: lastCommitId }),
      };
    });
    const body: Record<string, unknown> = { branch: plan.branch, commit_message: plan.message, actions };
    if (base.kind === "reset") {
      // the nearest GitLab offers to compare-and-swap on a reset: the head is as read right before the write
      const head = await this.#branchHead(this.#headId, plan.branch, signal);
      if (head !== base.previous) return { written: false, reason: `${plan.branch} moved before the reset` };
      body.start_sha = base.mainHead;
      if (this.#headId !== this.#upstreamId) body.start_project = this.#upstreamId;
      if (base.previous !== undefined) body.force = true;
    }
    const answer = await this.#http.request({
      method: "POST",
      path: `${byId(this.#headId)}/repository/commits`,
      body,
      signal,
    });
    if (answer.status === 400 && RACE_MESSAGES.test(apiMessage(answer.body))) {
      return { written: false, reason: apiMessage(answer.body) };
    }
    if (answer.status !== 201) throw apiFailure(answer, context);
    const sha = parseJson<{ id: string }>(answer, context).id;
    if (base.kind === "reset") {
      // a reset written over another writer's commit, or overwritten by one, is a race lost
      const head = await this.#branchHead(this.#headId, plan.branch, signal);
      if (
        head !== sha &&
        (head === undefined ||
          (await this.#commitsBetween(this.#headId, head, this.#headId, sha, signal)) > 0)
      ) {
        return { written: false, reason: `${plan.branch} was reset by another writer` };
      }
    }
    return { written: true, sha };
  }

  async openRequest(branch: string, title: string, body: string, signal?: AbortSignal): Promise<RequestRef> {
    const context = `opening a merge request on ${coordinateLabel(this.#upstream)}`;
    const answer = await this.#http.request({
      method: "POST",
      path: `${byId(this.#headId)}/merge_requests`,
      body: {
        source_branch: branch,
        target_branch: this.#defaultBranch,
        title,
        description: body,
        ...(this.#headId === this.#upstreamId ? {} : { target_project_id: this.#upstreamId }),
      },
      signal,
    });
    if (answer.status === 201) {
      const mr = parseJson<MergeRequestInfo>(answer, context);
      return { url: mr.web_url, number: mr.iid };
    }
    if (answer.status === 409 || answer.status === 422) {
      // another announce opened it meanwhile: reuse, never duplicate
      const open = await this.#findOpen(branch, signal);
      if (open) return open;
    }
    throw apiFailure(answer, context);
  }
}
