import { spawn } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import {
  runCommand,
  startHttpServer,
  type TempDir,
  type TestCa,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { Barrier } from "./forge-server-kit.js";

/**
 * A forgetwo-like git host on loopback HTTPS: bare repositories served by `git http-backend`
 * (CGI) behind a node server that demands Basic auth (401 with a challenge, as GitLab does, so git
 * asks its credential helper) and refuses as GitLab refuses a CI job token (not on the allowlist;
 * pushes not allowed). The repositories' hooks record the push options received and answer
 * `merge_request.create` as GitLab does ("View merge request for <branch>:" and its URL).
 */

export interface GitUser {
  password: string;
  kind: "job" | "token";
}

export interface GitCall {
  method: string;
  path: string;
  service: string | undefined;
  /** The Basic user name, when credentials came. */
  user: string | undefined;
  authorized: boolean;
  status?: number;
}

export interface PushRecord {
  options: string[];
  updates: Array<{ old: string; new: string; ref: string }>;
}

export interface MergeRequestRecord {
  iid: number;
  branch: string;
  target: string;
  title: string;
  description: string;
  state: "opened" | "merged";
}

const HOOK = (node: string, which: "pre-receive" | "post-receive") => `#!${node}
// ${which}: records the push options (pre-receive), answers merge_request.* as GitLab does (post-receive)
const fs = require("node:fs");
const path = require("node:path");
const repo = process.cwd();
const options = [];
for (let i = 0; i < Number(process.env.GIT_PUSH_OPTION_COUNT || 0); i++) options.push(process.env["GIT_PUSH_OPTION_" + i]);
const updates = fs.readFileSync(0, "utf8").split("\\n").filter(Boolean).map((line) => {
  const [oldSha, newSha, ref] = line.split(" ");
  return { old: oldSha, new: newSha, ref };
});
if (${JSON.stringify(which)} === "pre-receive") {
  fs.appendFileSync(path.join(repo, "push-options.jsonl"), JSON.stringify({ options, updates }) + "\\n");
  process.exit(0);
}
const option = (name) => {
  const found = options.find((o) => o === name || o.startsWith(name + "="));
  return found === undefined ? undefined : found.includes("=") ? found.slice(found.indexOf("=") + 1) : "";
};
if (option("merge_request.create") === undefined) process.exit(0);
const file = path.join(repo, "merge-requests.json");
const mrs = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
const lines = [];
for (const update of updates) {
  if (!update.ref.startsWith("refs/heads/") || /^0+$/.test(update.new)) continue;
  const branch = update.ref.slice("refs/heads/".length);
  let mr = mrs.find((m) => m.branch === branch && m.state === "opened");
  if (!mr) {
    mr = { iid: mrs.length + 1, branch, target: option("merge_request.target") || "main", title: option("merge_request.title") || branch, description: option("merge_request.description") || "", state: "opened" };
    mrs.push(mr);
  } else {
    if (option("merge_request.title") !== undefined) mr.title = option("merge_request.title");
    if (option("merge_request.description") !== undefined) mr.description = option("merge_request.description");
  }
  lines.push("", "View merge request for " + branch + ":", "  " + process.env.PKG_TEST_FORGE_URL + "/" + process.env.PKG_TEST_REPO_PATH + "/-/merge_requests/" + mr.iid, "");
}
fs.writeFileSync(file, JSON.stringify(mrs, null, 2));
process.stdout.write(lines.join("\\n") + "\\n");
`;

export class GitHttpServer {
  readonly calls: GitCall[] = [];
  readonly users = new Map<string, GitUser>();
  readonly barrier = new Barrier();
  /** The job token's publishing project is on the index project's allowlist. */
  jobTokenAllowlisted = true;
  /** The index project lets job tokens push. */
  jobTokenPush = true;
  #root: TempDir | undefined;
  #server: TestServer | undefined;

  get host(): string {
    return (this.#server as TestServer).host;
  }
  get url(): string {
    return (this.#server as TestServer).url;
  }
  get root(): string {
    return (this.#root as TempDir).path;
  }

  static async start(ca: TestCa): Promise<GitHttpServer> {
    const server = new GitHttpServer();
    server.#root = await tempDir("pkg-git-host-");
    server.#server = await startHttpServer((req, res) => server.#handle(req, res), { tls: ca });
    return server;
  }

  async stop(): Promise<void> {
    await this.#server?.stop();
    await this.#root?.remove();
  }

  bare(path: string): string {
    return join(this.root, `${path}.git`);
  }

  /** A bare repository whose default branch `main` holds `files` in one commit. */
  async createRepo(path: string, files: Record<string, string>): Promise<void> {
    const bare = this.bare(path);
    await mkdir(bare, { recursive: true });
    const git = (args: string[], cwd = bare) => runCommand("git", args, { cwd, env: gitEnv() });
    await git(["init", "--quiet", "--bare", "--initial-branch=main", bare], this.root);
    await git(["config", "receive.advertisePushOptions", "true"]);
    await git(["config", "http.receivepack", "true"]);
    const seed = join(this.root, `${path.replaceAll("/", "_")}-seed`);
    await git(["init", "--quiet", "--initial-branch=main", seed], this.root);
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(seed, name, ".."), { recursive: true });
      await writeFile(join(seed, name), content);
    }
    await git(["add", "-A"], seed);
    await git(["commit", "--quiet", "-m", "initial"], seed);
    await git(["push", "--quiet", bare, "main"], seed);
    // hooks come after the seed, so that they see the announces' pushes only
    for (const hook of ["pre-receive", "post-receive"] as const) {
      const file = join(bare, "hooks", hook);
      await writeFile(file, HOOK(process.execPath, hook));
      await chmod(file, 0o755);
    }
  }

  async git(path: string, args: string[]): Promise<string> {
    return (await runCommand("git", args, { cwd: this.bare(path), env: gitEnv() })).stdout;
  }

  async head(path: string, branch: string): Promise<string | undefined> {
    const out = await this.git(path, ["for-each-ref", "--format=%(objectname)", `refs/heads/${branch}`]);
    return out.trim() || undefined;
  }

  async file(path: string, ref: string, file: string): Promise<Buffer | undefined> {
    try {
      return Buffer.from(await this.git(path, ["show", `${ref}:${file}`]));
    } catch {
      return undefined;
    }
  }

  async pushes(path: string): Promise<PushRecord[]> {
    const text = await readFile(join(this.bare(path), "push-options.jsonl"), "utf8").catch(() => "");
    return text
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as PushRecord);
  }

  async mergeRequests(path: string): Promise<MergeRequestRecord[]> {
    const text = await readFile(join(this.bare(path), "merge-requests.json"), "utf8").catch(() => "[]");
    return JSON.parse(text) as MergeRequestRecord[];
  }

  /** Squash-merges a merge request's branch into main (the branch stays), as the index's bot does. */
  async squashMerge(path: string, iid: number): Promise<string> {
    const mrs = await this.mergeRequests(path);
    const mr = mrs.find((m) => m.iid === iid);
    if (!mr) throw new Error(`no merge request !${iid}`);
    const tree =
      (await this.git(path, ["merge-tree", "--write-tree", "main", mr.branch])).trim().split("\n")[0] ?? "";
    const commit = (await this.git(path, ["commit-tree", tree, "-p", "main", "-m", mr.title])).trim();
    await this.git(path, ["update-ref", "refs/heads/main", commit]);
    mr.state = "merged";
    await writeFile(join(this.bare(path), "merge-requests.json"), JSON.stringify(mrs, null, 2));
    return commit;
  }

  /** Whether merging the branch into main now would conflict. */
  async conflicts(path: string, branch: string): Promise<boolean> {
    const code = await new Promise<number>((resolve) => {
      const child = spawn("git", ["merge-tree", "--write-tree", "main", branch], {
        cwd: this.bare(path),
        env: gitEnv(),
        stdio: "ignore",
      });
      child.once("close", (status) => resolve(status ?? -1));
    });
    return code !== 0;
  }

  #deny(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
    res.end(`${message}\n`);
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "https://git.invalid");
    const service = url.searchParams.get("service") ?? url.pathname.match(/\/(git-[a-z-]+)$/)?.[1];
    const header = req.headers.authorization ?? "";
    const basic = header.startsWith("Basic ")
      ? Buffer.from(header.slice(6), "base64").toString("utf8")
      : undefined;
    const user = basic?.slice(0, basic.indexOf(":"));
    const password = basic?.slice(basic.indexOf(":") + 1);
    const call: GitCall = {
      method: req.method ?? "GET",
      path: url.pathname,
      service,
      user,
      authorized: basic !== undefined,
    };
    this.calls.push(call);
    res.once("finish", () => {
      call.status = res.statusCode;
    });
    const known = user === undefined ? undefined : this.users.get(user);
    if (!known || known.password !== password) {
      return this.#deny(res, 401, "HTTP Basic: Access denied", {
        "www-authenticate": 'Basic realm="GitLab"',
      });
    }
    if (known.kind === "job" && !this.jobTokenAllowlisted) {
      return this.#deny(res, 403, "Authentication by CI/CD job token not allowed from publisher to index.");
    }
    if (known.kind === "job" && service === "git-receive-pack" && !this.jobTokenPush) {
      return this.#deny(res, 403, "You are not allowed to upload code.");
    }
    await this.barrier.pass({
      method: call.method,
      path: `${url.pathname}?service=${service ?? ""}`,
      query: url.searchParams,
      body: undefined,
      user,
      authorized: true,
      at: 0,
    });
    const repoPath = url.pathname.match(/^\/(.+)\.git\//)?.[1] ?? "";
    const child = spawn("git", ["http-backend"], {
      env: {
        ...gitEnv(),
        GIT_PROJECT_ROOT: this.root,
        GIT_HTTP_EXPORT_ALL: "1",
        PATH_INFO: url.pathname,
        QUERY_STRING: url.search.replace(/^\?/, ""),
        REQUEST_METHOD: req.method ?? "GET",
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        REMOTE_USER: user ?? "",
        REMOTE_ADDR: "127.0.0.1",
        ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
        ...(typeof req.headers["git-protocol"] === "string"
          ? { GIT_PROTOCOL: req.headers["git-protocol"] }
          : {}),
        ...(typeof req.headers["content-encoding"] === "string"
          ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] }
          : {}),
        PKG_TEST_FORGE_URL: this.url,
        PKG_TEST_REPO_PATH: repoPath,
      },
      stdio: ["pipe", "pipe", "inherit"],
    });
    req.pipe(child.stdin);
    await new Promise<void>((resolve, reject) => {
      let head = Buffer.alloc(0);
      let started = false;
      child.stdout.on("data", (chunk: Buffer) => {
        if (started) {
          res.write(chunk);
          return;
        }
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf("\r\n\r\n") >= 0 ? head.indexOf("\r\n\r\n") : head.indexOf("\n\n");
        if (end < 0) return;
        const separator = head.indexOf("\r\n\r\n") >= 0 ? 4 : 2;
        const headers: Record<string, string> = {};
        let status = 200;
        for (const line of head.subarray(0, end).toString("latin1").split(/\r?\n/)) {
          const colon = line.indexOf(":");
          const name = line.slice(0, colon).trim();
          const value = line.slice(colon + 1).trim();
          if (name.toLowerCase() === "status") status = Number(value.split(" ")[0]);
          else if (name) headers[name] = value;
        }
        res.writeHead(status, headers);
        started = true;
        res.write(head.subarray(end + separator));
      });
      child.once("error", reject);
      child.once("close", () => {
        if (!started) res.writeHead(500).end("http-backend gave no answer");
        else res.end();
        resolve();
      });
    });
  }
}

/** git for the host side: no user or system configuration, an identity for its own commits. */
export function gitEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: "/nonexistent-pkg-test-home",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "index bot",
    GIT_AUTHOR_EMAIL: "bot@index.invalid",
    GIT_COMMITTER_NAME: "index bot",
    GIT_COMMITTER_EMAIL: "bot@index.invalid",
  };
}
