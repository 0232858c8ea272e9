import type { IncomingMessage, ServerResponse } from "node:http";
import type { TestCa } from "@pkg/testkit";
import { type ApiCall, type ForgeDialect, LoopbackForge, type Sent, sendJson } from "./forge-server-kit.js";

/**
 * A loopback forge speaking forgetwo's REST shapes (GitLab's `/api/v4`): projects by id or
 * encoded path, forks, branches, compare (also across a fork), repository files with their last
 * commit, commits with actions (start_sha, start_project, force, per-file last_commit_id checked as
 * GitLab checks it), merge requests. Real HTTPS on loopback; every API request is recorded.
 */

export interface Project {
  id: number;
  path: string;
  defaultBranch: string;
  branches: Map<string, string>;
  forkedFrom?: Project;
  /** Username → access level (30 developer, 40 maintainer). */
  members: Map<string, number>;
}

export interface MergeRequest {
  iid: number;
  target: Project;
  targetBranch: string;
  source: Project;
  sourceBranch: string;
  title: string;
  description: string;
  state: "opened" | "merged" | "closed";
}

export class ForgetwoServer extends LoopbackForge {
  readonly projects: Project[] = [];
  readonly mergeRequests: MergeRequest[] = [];
  protected readonly dialect: ForgeDialect = {
    apiPrefix: "/api/v4",
    // the raw path: encoded project paths and file paths stay encoded as sent
    path: (req) => (req.url ?? "/").split("?")[0]?.replace(/^\/api\/v4/, "") ?? "",
    credential: (req) => {
      const auth = req.headers.authorization ?? "";
      const privateToken = req.headers["private-token"];
      const token = typeof privateToken === "string" ? privateToken : auth.replace(/^Bearer\s+/i, "");
      return { token, authorized: auth !== "" || privateToken !== undefined };
    },
    messages: {
      rateLimited: "429 Too Many Requests",
      notFound: "404 Not Found",
      unauthorized: "401 Unauthorized",
    },
  };
  static async start(ca: TestCa): Promise<ForgetwoServer> {
    const forge = new ForgetwoServer();
    await forge.listen(ca);
    return forge;
  }

  createProject(
    path: string,
    files: Record<string, string | Buffer>,
    members: Record<string, number> = {},
  ): Project {
    const commit = this.objects.putCommit(this.objects.treeOf(files), [], "initial");
    const project: Project = {
      id: 100 + this.projects.length,
      path,
      defaultBranch: "main",
      branches: new Map([["main", commit]]),
      members: new Map(Object.entries(members)),
    };
    this.projects.push(project);
    return project;
  }

  project(ref: string | number): Project {
    const found = this.#find(String(ref));
    if (!found) throw new Error(`no project ${ref}`);
    return found;
  }

  file(path: string, ref: string, file: string): Buffer | undefined {
    const project = this.project(path);
    return this.objects.file(project.branches.get(ref) ?? ref, file);
  }

  commitToDefault(path: string, files: Record<string, string>, message = "other change"): string {
    const project = this.project(path);
    const head = project.branches.get(project.defaultBranch) as string;
    const entries = this.objects.entries(head);
    for (const [name, content] of Object.entries(files))
      entries.set(name, this.objects.putBlob(Buffer.from(content)));
    const sha = this.objects.putCommit(this.objects.putTree(entries), [head], message);
    project.branches.set(project.defaultBranch, sha);
    return sha;
  }

  conflicts(iid: number, target = this.projects[0] as Project): string[] {
    const mr = this.#mr(target, iid);
    return this.objects.threeWay(
      mr.target.branches.get(mr.targetBranch) as string,
      mr.source.branches.get(mr.sourceBranch) as string,
    ).conflicts;
  }

  /** Squash-merges the merge request (one commit on the target branch); the source branch stays. */
  squashMerge(iid: number, target = this.projects[0] as Project): string {
    const mr = this.#mr(target, iid);
    const base = mr.target.branches.get(mr.targetBranch) as string;
    const merged = this.objects.threeWay(base, mr.source.branches.get(mr.sourceBranch) as string);
    if (merged.conflicts.length > 0) throw new Error(`!${iid} conflicts: ${merged.conflicts.join(", ")}`);
    const sha = this.objects.putCommit(merged.tree, [base], mr.title);
    mr.target.branches.set(mr.targetBranch, sha);
    mr.state = "merged";
    return sha;
  }

  #mr(target: Project, iid: number): MergeRequest {
    const mr = this.mergeRequests.find((m) => m.target === target && m.iid === iid);
    if (!mr) throw new Error(`no merge request !${iid}`);
    return mr;
  }

  #find(ref: string): Project | undefined {
    const decoded = decodeURIComponent(ref);
    return /^[0-9]+$/.test(decoded)
      ? this.projects.find((p) => p.id === Number(decoded))
      : this.projects.find((p) => p.path.toLowerCase() === decoded.toLowerCase());
  }

  #projectJson(project: Project, user: string) {
    const level = project.members.get(user);
    return {
      id: project.id,
      path_with_namespace: project.path,
      default_branch: project.defaultBranch,
      web_url: `${this.url}/${project.path}`,
      import_status: "finished",
      forked_from_project: project.forkedFrom ? { id: project.forkedFrom.id } : null,
      permissions: {
        project_access: level === undefined ? null : { access_level: level },
        group_access: null,
      },
    };
  }

  #mrJson(mr: MergeRequest) {
    return {
      iid: mr.iid,
      state: mr.state,
      title: mr.title,
      description: mr.description,
      source_branch: mr.sourceBranch,
      target_branch: mr.targetBranch,
      source_project_id: mr.source.id,
      target_project_id: mr.target.id,
      web_url: `${this.url}/${mr.target.path}/-/merge_requests/${mr.iid}`,
    };
  }

  protected route(call: ApiCall, _req: IncomingMessage, res: ServerResponse): Sent {
    const { method, path, query } = call;
    const user = call.user as string;
    const body = (call.body ?? {}) as Record<string, unknown>;
    const match = path.match(/^\/projects\/([^/]+)(\/.*)?$/);
    if (!match) return sendJson(res, 404, { message: "404 Not Found" });
    const project = this.#find(match[1] ?? "");
    if (!project?.members.has(user)) return sendJson(res, 404, { message: "404 Project Not Found" });
    const rest = match[2] ?? "";
    const canPush = (project.members.get(user) ?? 0) >= 30;
    if (method === "GET" && rest === "") return sendJson(res, 200, this.#projectJson(project, user));
    if (method === "POST" && rest === "/fork") {
      const path = `${String(body.namespace_path ?? user)}/${String(body.path ?? project.path.split("/").pop())}`;
      if (this.#find(encodeURIComponent(path)))
        return sendJson(res, 409, { message: { name: ["has already been taken"] } });
      const fork: Project = {
        id: 100 + this.projects.length,
        path,
        defaultBranch: project.defaultBranch,
        branches: new Map([[project.defaultBranch, project.branches.get(project.defaultBranch) as string]]),
        forkedFrom: project,
        members: new Map([[user, 40]]),
      };
      this.projects.push(fork);
      return sendJson(res, 201, this.#projectJson(fork, user));
    }
    const branch = rest.match(/^\/repository\/branches\/(.+)$/);
    if (method === "GET" && branch) {
      const name = decodeURIComponent(branch[1] ?? "");
      const sha = project.branches.get(name);
      if (!sha) return sendJson(res, 404, { message: "404 Branch Not Found" });
      return sendJson(res, 200, { name, commit: { id: sha } });
    }
    if (method === "GET" && rest === "/repository/compare") {
      const fromProject = query.get("from_project_id")
        ? this.#find(query.get("from_project_id") ?? "")
        : project;
      const resolve = (p: Project | undefined, ref: string | null) =>
        ref === null || !p
          ? undefined
          : (p.branches.get(ref) ?? (this.objects.commit(ref) ? ref : undefined));
      const from = resolve(fromProject, query.get("from"));
      const to = resolve(project, query.get("to"));
      if (!from || !to) return sendJson(res, 404, { message: "404 Ref Not Found" });
      const { aheadCommits } = this.objects.aheadBehind(from, to);
      return sendJson(res, 200, {
        commits: aheadCommits.map((id) => ({ id })),
        diffs: [],
        compare_same_ref: from === to,
      });
    }
    const file = rest.match(/^\/repository\/files\/([^/]+)$/);
    if (method === "GET" && file) {
      const filePath = decodeURIComponent(file[1] ?? "");
      const ref = query.get("ref") ?? project.defaultBranch;
      const commit = project.branches.get(ref) ?? (this.objects.commit(ref) ? ref : undefined);
      const bytes = commit === undefined ? undefined : this.objects.file(commit, filePath);
      if (!commit || !bytes) return sendJson(res, 404, { message: "404 File Not Found" });
      return sendJson(res, 200, {
        file_path: filePath,
        size: bytes.length,
        encoding: "base64",
        content: bytes.toString("base64"),
        ref,
        blob_id: this.objects.blobAt(commit, filePath),
        commit_id: commit,
        last_commit_id: this.objects.lastCommitFor(commit, filePath),
      });
    }
    if (method === "POST" && rest === "/repository/commits") return this.#commit(project, canPush, body, res);
    if (rest === "/merge_requests" && method === "GET") {
      const found = this.mergeRequests.filter(
        (mr) =>
          mr.target === project &&
          (query.get("state") === null || query.get("state") === "all" || mr.state === query.get("state")) &&
          (query.get("source_branch") === null || mr.sourceBranch === query.get("source_branch")) &&
          (query.get("target_branch") === null || mr.targetBranch === query.get("target_branch")) &&
          (query.get("source_project_id") === null ||
            String(mr.source.id) === query.get("source_project_id")),
      );
      return sendJson(
        res,
        200,
        found.map((mr) => this.#mrJson(mr)),
      );
    }
    if (rest === "/merge_requests" && method === "POST") {
      const target =
        body.target_project_id === undefined ? project : this.#find(String(body.target_project_id));
      const sourceBranch = String(body.source_branch ?? "");
      const targetBranch = String(body.target_branch ?? "");
      if (!target || !project.branches.has(sourceBranch))
        return sendJson(res, 400, { message: "invalid source or target" });
      const open = this.mergeRequests.find(
        (mr) => mr.source === project && mr.sourceBranch === sourceBranch && mr.state === "opened",
      );
      if (open) {
        return sendJson(res, 409, {
          message: [`Another open merge request already exists for this source branch: !${open.iid}`],
        });
      }
      const mr: MergeRequest = {
        iid: this.mergeRequests.filter((m) => m.target === target).length + 1,
        target,
        targetBranch,
        source: project,
        sourceBranch,
        title: String(body.title ?? ""),
        description: String(body.description ?? ""),
        state: "opened",
      };
      this.mergeRequests.push(mr);
      return sendJson(res, 201, this.#mrJson(mr));
    }
    return sendJson(res, 404, { message: "404 Not Found" });
  }

  /** POST /projects/:id/repository/commits, validated in the order GitLab validates it. */
  #commit(project: Project, canPush: boolean, body: Record<string, unknown>, res: ServerResponse): Sent {
    if (!canPush)
      return sendJson(res, 403, { message: "403 Forbidden - You are not allowed to push into this branch" });
    const branch = String(body.branch ?? "");
    const startSha = typeof body.start_sha === "string" ? body.start_sha : undefined;
    const startProject = body.start_project === undefined ? project : this.#find(String(body.start_project));
    if (!startProject) return sendJson(res, 404, { message: "404 Project Not Found" });
    // the commits API: start_branch defaults to branch unless start_sha is given
    const startBranch =
      typeof body.start_branch === "string" ? body.start_branch : startSha === undefined ? branch : undefined;
    if (startSha !== undefined && !this.objects.commit(startSha)) {
      return sendJson(res, 400, { message: `Cannot find start_sha '${startSha}'` });
    }
    if (startBranch !== undefined && !startProject.branches.has(startBranch)) {
      return sendJson(res, 400, { message: "You can only create or edit files when you are on a branch" });
    }
    const differentBranch = startProject !== project || startBranch !== branch || startSha !== undefined;
    if (differentBranch && project.branches.has(branch) && body.force !== true) {
      return sendJson(res, 400, {
        message: `A branch called '${branch}' already exists. Switch to that branch in order to make changes`,
      });
    }
    const base = startSha ?? (startProject.branches.get(startBranch as string) as string);
    const entries = this.objects.entries(base);
    for (const action of (body.actions ?? []) as Array<Record<string, unknown>>) {
      const filePath = String(action.file_path ?? "");
      const exists = entries.has(filePath);
      if (action.action === "create" && exists)
        return sendJson(res, 400, { message: "A file with this name already exists" });
      if (action.action === "update" && !exists)
        return sendJson(res, 400, { message: "A file with this name doesn't exist" });
      if (
        action.action === "update" &&
        typeof action.last_commit_id === "string" &&
        startBranch !== undefined
      ) {
        // Files::BaseService#file_has_changed?: the file's last commit on the start branch against
        // its last commit as of the given commit
        const onBranch = this.objects.lastCommitFor(
          startProject.branches.get(startBranch) as string,
          filePath,
        );
        const asOf = this.objects.commit(action.last_commit_id)
          ? this.objects.lastCommitFor(action.last_commit_id, filePath)
          : undefined;
        if (onBranch !== undefined && asOf !== undefined && onBranch !== asOf) {
          return sendJson(res, 400, {
            message: `The file has changed since you started editing it: ${filePath}`,
          });
        }
      }
      const content = String(action.content ?? "");
      entries.set(
        filePath,
        this.objects.putBlob(
          action.encoding === "base64" ? Buffer.from(content, "base64") : Buffer.from(content),
        ),
      );
    }
    const sha = this.objects.putCommit(
      this.objects.putTree(entries),
      [base],
      String(body.commit_message ?? ""),
    );
    project.branches.set(branch, sha);
    return sendJson(res, 201, { id: sha, short_id: sha.slice(0, 8), parent_ids: [base] });
  }
}
