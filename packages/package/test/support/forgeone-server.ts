import type { IncomingMessage, ServerResponse } from "node:http";
import type { TestCa } from "@pkg/testkit";
import {
  type ApiCall,
  type ForgeDialect,
  LoopbackForge,
  type Sent,
  sendBytes,
  sendJson,
} from "./forge-server-kit.js";

/**
 * A loopback forge speaking forgeone's REST shapes (GitHub's, under a GitHub Enterprise style
 * `/api/v3` root): repositories, forks sharing one object network, the git data API (blobs, trees,
 * commits, refs with fast-forward-only updates), contents (raw), compare, pulls. Real HTTPS on
 * loopback; every API request is recorded. The public forge cannot exist here: this stands in for it.
 */

export interface Repo {
  owner: string;
  name: string;
  defaultBranch: string;
  refs: Map<string, string>;
  fork: boolean;
  parent?: Repo;
  pushers: Set<string>;
}

export interface Pull {
  number: number;
  base: Repo;
  baseRef: string;
  head: Repo;
  headRef: string;
  title: string;
  body: string;
  state: "open" | "closed";
  merged: boolean;
}

const fullName = (repo: Repo) => `${repo.owner}/${repo.name}`;

export class ForgeoneServer extends LoopbackForge {
  readonly repos = new Map<string, Repo>();
  readonly pulls: Pull[] = [];
  protected readonly dialect: ForgeDialect = {
    apiPrefix: "/api/v3",
    path: (_req, url) => url.pathname.replace(/^\/api\/v3/, ""),
    credential: (req) => {
      const auth = req.headers.authorization ?? "";
      return { token: auth.replace(/^(Bearer|token)\s+/i, ""), authorized: auth !== "" };
    },
    messages: {
      rateLimited: "API rate limit exceeded",
      notFound: "Not Found",
      unauthorized: "Bad credentials",
    },
  };
  static async start(ca: TestCa): Promise<ForgeoneServer> {
    const forge = new ForgeoneServer();
    await forge.listen(ca);
    return forge;
  }

  /** A repository with one commit holding `files` on its default branch. */
  createRepo(name: string, files: Record<string, string | Buffer>, pushers: string[] = []): Repo {
    const [owner = "", repoName = ""] = name.split("/");
    const tree = this.objects.treeOf(files);
    const commit = this.objects.putCommit(tree, [], "initial");
    const repo: Repo = {
      owner,
      name: repoName,
      defaultBranch: "main",
      refs: new Map([["main", commit]]),
      fork: false,
      pushers: new Set(pushers),
    };
    this.repos.set(name.toLowerCase(), repo);
    return repo;
  }

  repo(name: string): Repo {
    const repo = this.repos.get(name.toLowerCase());
    if (!repo) throw new Error(`no repository ${name}`);
    return repo;
  }

  file(name: string, ref: string, path: string): Buffer | undefined {
    const repo = this.repo(name);
    return this.objects.file(repo.refs.get(ref) ?? ref, path);
  }

  /** Another change lands on the default branch (another package's announce merged, say). */
  commitToDefault(name: string, files: Record<string, string>, message = "other change"): string {
    const repo = this.repo(name);
    const head = repo.refs.get(repo.defaultBranch) as string;
    const entries = this.objects.entries(head);
    for (const [path, content] of Object.entries(files))
      entries.set(path, this.objects.putBlob(Buffer.from(content)));
    const sha = this.objects.putCommit(this.objects.putTree(entries), [head], message);
    repo.refs.set(repo.defaultBranch, sha);
    return sha;
  }

  /** Paths that conflict if the pull were merged now (empty: mergeable). */
  conflicts(number: number): string[] {
    const pull = this.#pull(number);
    const head = pull.head.refs.get(pull.headRef) as string;
    return this.objects.threeWay(pull.base.refs.get(pull.baseRef) as string, head).conflicts;
  }

  /** Squash-merges the pull as the index's bot does: one commit on the base branch; the head branch stays. */
  squashMerge(number: number): string {
    const pull = this.#pull(number);
    const base = pull.base.refs.get(pull.baseRef) as string;
    const merged = this.objects.threeWay(base, pull.head.refs.get(pull.headRef) as string);
    if (merged.conflicts.length > 0)
      throw new Error(`pull ${number} conflicts: ${merged.conflicts.join(", ")}`);
    const sha = this.objects.putCommit(merged.tree, [base], `${pull.title} (#${number})`);
    pull.base.refs.set(pull.baseRef, sha);
    pull.state = "closed";
    pull.merged = true;
    return sha;
  }

  #pull(number: number): Pull {
    const pull = this.pulls.find((p) => p.number === number);
    if (!pull) throw new Error(`no pull ${number}`);
    return pull;
  }

  #network(repo: Repo): Repo[] {
    let root = repo;
    while (root.parent) root = root.parent;
    return [...this.repos.values()].filter((r) => {
      let top = r;
      while (top.parent) top = top.parent;
      return top === root;
    });
  }

  /** A ref, `owner:ref` or a commit id, resolved in the repository's network. */
  #resolve(repo: Repo, spec: string): string | undefined {
    const colon = spec.indexOf(":");
    let where = repo;
    let ref = spec;
    if (colon >= 0) {
      const owner = spec.slice(0, colon).toLowerCase();
      const found = this.#network(repo).find((r) => r.owner.toLowerCase() === owner);
      if (!found) return undefined;
      where = found;
      ref = spec.slice(colon + 1);
    }
    return where.refs.get(ref) ?? (this.objects.commit(ref) ? ref : undefined);
  }

  #repoJson(repo: Repo, user: string | undefined) {
    return {
      full_name: fullName(repo),
      name: repo.name,
      owner: { login: repo.owner },
      default_branch: repo.defaultBranch,
      fork: repo.fork,
      ...(repo.parent ? { parent: { full_name: fullName(repo.parent) } } : {}),
      html_url: `${this.url}/${fullName(repo)}`,
      permissions: { pull: true, push: user !== undefined && repo.pushers.has(user) },
    };
  }

  #pullJson(pull: Pull) {
    return {
      number: pull.number,
      state: pull.state,
      merged: pull.merged,
      title: pull.title,
      body: pull.body,
      html_url: `${this.url}/${fullName(pull.base)}/pull/${pull.number}`,
      head: {
        ref: pull.headRef,
        label: `${pull.head.owner}:${pull.headRef}`,
        sha: pull.head.refs.get(pull.headRef),
      },
      base: { ref: pull.baseRef },
    };
  }

  protected route(call: ApiCall, req: IncomingMessage, res: ServerResponse): Sent {
    const { method, path } = call;
    const user = call.user as string;
    const body = (call.body ?? {}) as Record<string, unknown>;
    if (method === "GET" && path === "/user") return sendJson(res, 200, { login: user });
    const match = path.match(/^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/);
    if (!match) return sendJson(res, 404, { message: "Not Found" });
    const repo = this.repos.get(
      `${decodeURIComponent(match[1] ?? "")}/${decodeURIComponent(match[2] ?? "")}`.toLowerCase(),
    );
    if (!repo) return sendJson(res, 404, { message: "Not Found" });
    const rest = match[3] ?? "";
    const canPush = repo.pushers.has(user);
    if (method === "GET" && rest === "") return sendJson(res, 200, this.#repoJson(repo, user));
    if (method === "POST" && rest === "/forks") {
      const owner = typeof body.organization === "string" ? body.organization : user;
      const name = typeof body.name === "string" ? body.name : repo.name;
      const key = `${owner}/${name}`.toLowerCase();
      let fork = this.repos.get(key);
      if (!fork) {
        fork = {
          owner,
          name,
          defaultBranch: repo.defaultBranch,
          refs: new Map([[repo.defaultBranch, repo.refs.get(repo.defaultBranch) as string]]),
          fork: true,
          parent: repo,
          pushers: new Set([user]),
        };
        this.repos.set(key, fork);
      }
      return sendJson(res, 202, this.#repoJson(fork, user));
    }
    if (method === "POST" && rest === "/merge-upstream") {
      if (!repo.parent) return sendJson(res, 422, { message: "not a fork" });
      const branch = String(body.branch ?? repo.defaultBranch);
      const upstream = repo.parent.refs.get(branch) as string;
      const mine = repo.refs.get(branch);
      if (mine !== undefined && !this.objects.isAncestor(mine, upstream)) {
        return sendJson(res, 409, { message: "There are merge conflicts" });
      }
      repo.refs.set(branch, upstream);
      return sendJson(res, 200, {
        merge_type: "fast-forward",
        base_branch: `${repo.parent.owner}:${branch}`,
      });
    }
    const refMatch = rest.match(/^\/git\/refs?\/heads\/(.+)$/);
    if (method === "GET" && refMatch && rest.startsWith("/git/ref/")) {
      const branch = decodeURIComponent(refMatch[1] ?? "");
      const sha = repo.refs.get(branch);
      if (!sha) return sendJson(res, 404, { message: "Not Found" });
      return sendJson(res, 200, { ref: `refs/heads/${branch}`, object: { sha, type: "commit" } });
    }
    if (method === "PATCH" && refMatch && rest.startsWith("/git/refs/")) {
      if (!canPush)
        return sendJson(res, 403, { message: "Resource not accessible by personal access token" });
      const branch = decodeURIComponent(refMatch[1] ?? "");
      const current = repo.refs.get(branch);
      const sha = String(body.sha);
      if (!current) return sendJson(res, 422, { message: "Reference does not exist" });
      if (!this.objects.commit(sha)) return sendJson(res, 422, { message: "Object does not exist" });
      if (body.force !== true && !this.objects.isAncestor(current, sha)) {
        return sendJson(res, 422, { message: "Update is not a fast forward" });
      }
      repo.refs.set(branch, sha);
      return sendJson(res, 200, { ref: `refs/heads/${branch}`, object: { sha, type: "commit" } });
    }
    if (method === "POST" && rest === "/git/refs") {
      if (!canPush)
        return sendJson(res, 403, { message: "Resource not accessible by personal access token" });
      const ref = String(body.ref);
      const branch = ref.replace(/^refs\/heads\//, "");
      if (repo.refs.has(branch)) return sendJson(res, 422, { message: "Reference already exists" });
      const sha = String(body.sha);
      if (!this.objects.commit(sha)) return sendJson(res, 422, { message: "Object does not exist" });
      repo.refs.set(branch, sha);
      return sendJson(res, 201, { ref, object: { sha, type: "commit" } });
    }
    const commitMatch = rest.match(/^\/git\/commits\/([0-9a-f]{40})$/);
    if (method === "GET" && commitMatch) {
      const commit = this.objects.commit(commitMatch[1] ?? "");
      if (!commit) return sendJson(res, 404, { message: "Not Found" });
      return sendJson(res, 200, {
        sha: commit.sha,
        tree: { sha: commit.tree },
        parents: commit.parents.map((sha) => ({ sha })),
        message: commit.message,
      });
    }
    if (method === "POST" && rest === "/git/blobs") {
      if (!canPush)
        return sendJson(res, 403, { message: "Resource not accessible by personal access token" });
      const content = String(body.content ?? "");
      const bytes =
        body.encoding === "base64" ? Buffer.from(content, "base64") : Buffer.from(content, "utf8");
      return sendJson(res, 201, { sha: this.objects.putBlob(bytes) });
    }
    if (method === "POST" && rest === "/git/trees") {
      if (!canPush)
        return sendJson(res, 403, { message: "Resource not accessible by personal access token" });
      const baseTree =
        typeof body.base_tree === "string" ? this.objects.trees.get(body.base_tree) : undefined;
      if (typeof body.base_tree === "string" && !baseTree)
        return sendJson(res, 422, { message: "base_tree not found" });
      const entries = new Map(baseTree);
      for (const entry of (body.tree ?? []) as Array<Record<string, unknown>>) {
        const path = String(entry.path);
        if (entry.sha === null) entries.delete(path);
        else if (typeof entry.sha === "string") {
          if (!this.objects.blobs.has(entry.sha))
            return sendJson(res, 422, { message: `blob ${entry.sha} not found` });
          entries.set(path, entry.sha);
        } else entries.set(path, this.objects.putBlob(Buffer.from(String(entry.content ?? ""))));
      }
      return sendJson(res, 201, { sha: this.objects.putTree(entries) });
    }
    if (method === "POST" && rest === "/git/commits") {
      if (!canPush)
        return sendJson(res, 403, { message: "Resource not accessible by personal access token" });
      const tree = String(body.tree);
      const parents = (body.parents ?? []) as string[];
      if (!this.objects.trees.has(tree) || !parents.every((p) => this.objects.commit(p))) {
        return sendJson(res, 422, { message: "Tree or parent not found" });
      }
      return sendJson(res, 201, { sha: this.objects.putCommit(tree, parents, String(body.message ?? "")) });
    }
    const contents = rest.match(/^\/contents\/(.+)$/);
    if (method === "GET" && contents) {
      const path = (contents[1] ?? "").split("/").map(decodeURIComponent).join("/");
      const ref = call.query.get("ref") ?? repo.defaultBranch;
      const sha = this.#resolve(repo, ref);
      const bytes = sha === undefined ? undefined : this.objects.file(sha, path);
      if (!bytes) return sendJson(res, 404, { message: "Not Found" });
      if ((req.headers.accept ?? "").includes("raw")) {
        return sendBytes(res, 200, bytes, "application/vnd.github.raw");
      }
      return sendJson(res, 200, {
        type: "file",
        path,
        encoding: "base64",
        content: bytes.toString("base64"),
      });
    }
    const compare = rest.match(/^\/compare\/(.+)$/);
    if (method === "GET" && compare) {
      const [baseSpec = "", headSpec = ""] = decodeURIComponent(compare[1] ?? "").split("...");
      const base = this.#resolve(repo, baseSpec);
      const head = this.#resolve(repo, headSpec);
      if (!base || !head) return sendJson(res, 404, { message: "Not Found" });
      const { ahead, behind } = this.objects.aheadBehind(base, head);
      const status = ahead > 0 ? (behind > 0 ? "diverged" : "ahead") : behind > 0 ? "behind" : "identical";
      return sendJson(res, 200, { status, ahead_by: ahead, behind_by: behind, total_commits: ahead });
    }
    if (rest === "/pulls" && method === "GET") {
      const state = call.query.get("state") ?? "open";
      const head = call.query.get("head");
      const base = call.query.get("base");
      const found = this.pulls.filter(
        (p) =>
          p.base === repo &&
          (state === "all" || p.state === state) &&
          (!head || `${p.head.owner}:${p.headRef}`.toLowerCase() === head.toLowerCase()) &&
          (!base || p.baseRef === base),
      );
      return sendJson(
        res,
        200,
        found.map((p) => this.#pullJson(p)),
      );
    }
    if (rest === "/pulls" && method === "POST") {
      const [owner = "", headRef = ""] = String(body.head ?? "").split(":");
      const head = this.#network(repo).find((r) => r.owner.toLowerCase() === owner.toLowerCase());
      const baseRef = String(body.base ?? repo.defaultBranch);
      if (!head?.refs.has(headRef))
        return sendJson(res, 422, {
          message: "Validation Failed",
          errors: [{ field: "head", code: "invalid" }],
        });
      const open = this.pulls.find(
        (p) => p.base === repo && p.state === "open" && p.head === head && p.headRef === headRef,
      );
      if (open) {
        return sendJson(res, 422, {
          message: "Validation Failed",
          errors: [
            {
              resource: "PullRequest",
              code: "custom",
              message: `A pull request already exists for ${owner}:${headRef}.`,
            },
          ],
        });
      }
      const pull: Pull = {
        number: this.pulls.length + 1,
        base: repo,
        baseRef,
        head,
        headRef,
        title: String(body.title ?? ""),
        body: String(body.body ?? ""),
        state: "open",
        merged: false,
      };
      this.pulls.push(pull);
      return sendJson(res, 201, this.#pullJson(pull));
    }
    return sendJson(res, 404, { message: "Not Found" });
  }
}
