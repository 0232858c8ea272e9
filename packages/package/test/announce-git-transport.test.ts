import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isPkgError } from "@pkg/common";
import { createTestCa, runCommand, type TempDir, type TestCa, tempDir } from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { announceBranch, requestBody } from "../src/announce/forge/branch.js";
import {
  addTags,
  announceTo,
  INDEX_FILES,
  PACKAGE,
  packageSource,
  ROOT,
  rootTags,
} from "./support/announce-forge.js";
import { GitHttpServer } from "./support/git-http-server.js";

const BRANCH = announceBranch(PACKAGE);
const DEPLOY_USER = "gitlab+deploy-token-7";
const DEPLOY_TOKEN = "gldt-deploy-token-secret-4711";
const JOB_TOKEN = "glcbt-job-token-secret-0815";

let ca: TestCa;
let work: TempDir;
let server: GitHttpServer;
let argvLog: string;
let configLog: string;

/** A `git` first on PATH that records each invocation's arguments and, after it, the repository's .git/config. */
async function gitWrapper(dir: string): Promise<string> {
  const real = (await runCommand("sh", ["-c", "command -v git"])).stdout.trim();
  const wrapper = join(dir, "git");
  await writeFile(
    wrapper,
    `#!/bin/sh
for a in "$@"; do printf '%s\\037' "$a"; done >> "$PKG_TEST_GIT_ARGV"
printf '\\n' >> "$PKG_TEST_GIT_ARGV"
"${real}" "$@"
status=$?
if [ -f .git/config ]; then { cat .git/config; printf '\\n--\\n'; } >> "$PKG_TEST_GIT_CONFIGS"; fi
exit $status
`,
  );
  await chmod(wrapper, 0o755);
  return dir;
}

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: `${work.path}/bin:${process.env.PATH}`,
    HOME: work.path,
    PKG_EXTRA_CA_CERTS: ca.certPath,
    PKG_TEST_GIT_ARGV: argvLog,
    PKG_TEST_GIT_CONFIGS: configLog,
    ...extra,
  };
}

const deploy = () => env({ PKG_ANNOUNCE_GIT_TOKEN: DEPLOY_TOKEN, PKG_ANNOUNCE_GIT_USER: DEPLOY_USER });
const job = () => env({ CI_JOB_TOKEN: JOB_TOKEN, CI_SERVER_URL: server.url });

const options = (environment: NodeJS.ProcessEnv) => ({
  forge: "forgetwo" as const,
  transport: "git" as const,
  indexRepo: `${server.host}/acme/index`,
  env: environment,
});

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isPkgError(error)) return { exitCode: error.exitCode, message: error.message, detail: error.detail };
    throw error;
  }
  throw new Error("expected a failure");
}

beforeAll(async () => {
  ca = await createTestCa();
});
afterAll(async () => {
  await ca.remove();
});
beforeEach(async () => {
  work = await tempDir("pkg-announce-git-");
  await runCommand("mkdir", ["-p", join(work.path, "bin")]);
  await gitWrapper(join(work.path, "bin"));
  argvLog = join(work.path, "argv.log");
  configLog = join(work.path, "configs.log");
  server = await GitHttpServer.start(ca);
  server.users.set(DEPLOY_USER, { password: DEPLOY_TOKEN, kind: "token" });
  server.users.set("gitlab-ci-token", { password: JOB_TOKEN, kind: "job" });
  await server.createRepo("acme/index", INDEX_FILES);
});
afterEach(async () => {
  await server.stop();
  await work.remove();
});

describe("git transport (forgetwo)", () => {
  it("clones, commits and pushes once with the merge-request push options; the token is never in argv, URL or .git/config", async () => {
    const source = await packageSource(["1.2.3", "1.2"]);
    const report = await announceTo(options(deploy()), source, ["1.2.3", "1.2"]);
    expect(report).toMatchObject({
      status: "updated",
      requestNumber: 1,
      requestUrl: `${server.url}/acme/index/-/merge_requests/1`,
    });
    const main = await server.head("acme/index", "main");
    const head = await server.head("acme/index", BRANCH);
    expect((await server.git("acme/index", ["rev-parse", `${head}^`])).trim()).toBe(main);
    expect(rootTags(await server.file("acme/index", BRANCH, ROOT))).toEqual(["1.2", "1.2.3"]);
    const pushes = await server.pushes("acme/index");
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.options).toEqual([
      "merge_request.create",
      "merge_request.target=main",
      `merge_request.title=announce: ${PACKAGE}`,
      `merge_request.description=${requestBody(PACKAGE)}`,
    ]);
    expect(pushes[0]?.updates).toEqual([{ old: "0".repeat(40), new: head, ref: `refs/heads/${BRANCH}` }]);
    const [mr] = await server.mergeRequests("acme/index");
    expect(mr).toMatchObject({ iid: 1, branch: BRANCH, target: "main", title: `announce: ${PACKAGE}` });

    // git asked its credential helper after the server's challenge: each authenticated request
    // came from the deploy token's user, and git's first try of each connection had no credential
    expect(server.calls.some((c) => c.status === 401 && !c.authorized)).toBe(true);
    expect(server.calls.filter((c) => c.authorized).every((c) => c.user === DEPLOY_USER)).toBe(true);
    expect(server.calls.some((c) => c.service === "git-receive-pack" && c.status === 200)).toBe(true);

    const argv = await readFile(argvLog, "utf8");
    const configs = await readFile(configLog, "utf8");
    expect(argv).toContain("push");
    expect(argv).toContain("merge_request.create");
    expect(argv).not.toContain(DEPLOY_TOKEN);
    expect(configs).toContain(`url = https://${server.host}/acme/index.git`);
    expect(configs).not.toContain(DEPLOY_TOKEN);
    expect(configs).not.toContain("credential");
    expect(configs).not.toMatch(/https:\/\/[^/\s]*@/);
    expect(JSON.stringify(report)).not.toContain(DEPLOY_TOKEN);
  });

  it("a second announce appends to the branch; the forge updates the open merge request; unchanged pushes nothing", async () => {
    const source = await packageSource(["1.2.3"]);
    await announceTo(options(deploy()), source, ["1.2.3"]);
    const first = await server.head("acme/index", BRANCH);
    await addTags(source, ["1.3.0"]);
    const report = await announceTo(options(deploy()), source, ["1.3.0"]);
    expect(report).toMatchObject({ status: "updated", requestNumber: 1 });
    const head = await server.head("acme/index", BRANCH);
    expect((await server.git("acme/index", ["rev-parse", `${head}^`])).trim()).toBe(first);
    expect(rootTags(await server.file("acme/index", BRANCH, ROOT))).toEqual(["1.2.3", "1.3.0"]);
    expect(await server.mergeRequests("acme/index")).toHaveLength(1);

    const again = await announceTo(options(deploy()), source, ["1.3.0"]);
    expect(again.status).toBe("unchanged");
    expect(await server.pushes("acme/index")).toHaveLength(2);
  });

  it("after a squash merge the branch is reset onto the default branch (a forced push, leased on the spent head)", async () => {
    const source = await packageSource(["1.2.3"]);
    await announceTo(options(deploy()), source, ["1.2.3"]);
    const spent = await server.head("acme/index", BRANCH);
    await server.squashMerge("acme/index", 1);
    const main = await server.head("acme/index", "main");
    await addTags(source, ["1.3.0"]);
    const report = await announceTo(options(deploy()), source, ["1.3.0"]);
    expect(report).toMatchObject({ status: "updated", requestNumber: 2 });
    const head = await server.head("acme/index", BRANCH);
    expect((await server.git("acme/index", ["rev-parse", `${head}^`])).trim()).toBe(main);
    expect((await server.pushes("acme/index"))[1]?.updates[0]).toMatchObject({ old: spent, new: head });
    expect(await server.conflicts("acme/index", BRANCH)).toBe(false);
    expect(rootTags(await server.file("acme/index", BRANCH, ROOT))).toEqual(["1.2.3", "1.3.0"]);
    const argv = await readFile(argvLog, "utf8");
    expect(argv).toContain(`--force-with-lease=refs/heads/${BRANCH}:${spent}`);
  });

  it("the CI job's own token works through the ladder; an allowlist miss is 77 and a project that refuses job-token pushes 82", async () => {
    const source = await packageSource(["1.0.0"]);
    const ok = await announceTo(options(job()), source, ["1.0.0"]);
    expect(ok.status).toBe("updated");
    expect(server.calls.filter((c) => c.authorized).every((c) => c.user === "gitlab-ci-token")).toBe(true);
    expect(await readFile(argvLog, "utf8")).not.toContain(JOB_TOKEN);

    await addTags(source, ["1.1.0"]);
    server.jobTokenAllowlisted = false;
    expect(await failure(announceTo(options(job()), source, ["1.1.0"]))).toMatchObject({
      exitCode: 77,
      detail: "forge_publisher_not_allowlisted",
    });
    server.jobTokenAllowlisted = true;
    server.jobTokenPush = false;
    const refused = await failure(announceTo(options(job()), source, ["1.1.0"]));
    expect(refused).toMatchObject({ exitCode: 82, detail: "forge_capability_unavailable" });
    expect(refused.message).toContain("You are not allowed to upload code.");
    expect(refused.message).not.toContain(JOB_TOKEN);
  });

  it("a rejected credential is exit 80; no credential at all is exit 80 before git runs", async () => {
    const source = await packageSource(["1.0.0"]);
    const rejected = await failure(
      announceTo(
        options(env({ PKG_ANNOUNCE_GIT_TOKEN: "gldt-wrong-token-1234", PKG_ANNOUNCE_GIT_USER: DEPLOY_USER })),
        source,
        ["1.0.0"],
      ),
    );
    expect(rejected.exitCode).toBe(80);
    expect(rejected.message).not.toContain("gldt-wrong-token-1234");
    const calls = server.calls.length;
    const missing = await failure(announceTo(options(env({})), source, ["1.0.0"]));
    expect(missing.exitCode).toBe(80);
    expect(missing.message).toContain("PKG_ANNOUNCE_GIT_TOKEN");
    expect(server.calls.length).toBe(calls);
  });

  it("two announces racing on one package both land: the leased push refuses the loser, which fetches, regenerates and pushes again", async () => {
    const first = await packageSource(["1.0.0"]);
    await announceTo(options(deploy()), first, ["1.0.0"]);
    // both have fetched and committed before either push is let through
    server.barrier.arm(2, (call) => call.path.endsWith("/info/refs?service=git-receive-pack"));
    const a = await packageSource(["1.1.0"]);
    const b = await packageSource(["1.2.0"]);
    const [ra, rb] = await Promise.all([
      announceTo(options(deploy()), a, ["1.1.0"]),
      announceTo(options(deploy()), b, ["1.2.0"]),
    ]);
    expect(ra.status).toBe("updated");
    expect(rb.status).toBe("updated");
    expect(rootTags(await server.file("acme/index", BRANCH, ROOT))).toEqual(["1.0.0", "1.1.0", "1.2.0"]);
    // the first announce, both racers (one refused by the server's own compare-and-swap on the
    // ref, both having passed the lease together) and the loser's second push
    expect(await server.pushes("acme/index")).toHaveLength(4);
    expect(await server.mergeRequests("acme/index")).toHaveLength(1);
  });
});
