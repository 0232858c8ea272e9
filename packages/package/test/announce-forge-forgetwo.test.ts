import { isPkgError } from "@pkg/common";
import { createTestCa, type TestCa } from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { announceBranch } from "../src/announce/forge/branch.js";
import {
  addTags,
  announceTo,
  INDEX_FILES,
  PACKAGE,
  packageSource,
  ROOT,
  rootTags,
} from "./support/announce-forge.js";
import { ForgetwoServer } from "./support/forgetwo-server.js";

const TOKEN = "glpat-forgetwo-test-token-0123";
const BRANCH = announceBranch(PACKAGE);
// a nested namespace: allowed on forgetwo
const INDEX = "acme/platform/index";

let ca: TestCa;
let forge: ForgetwoServer;
let env: NodeJS.ProcessEnv;

const options = (extra: { fork?: string; token?: string; env?: NodeJS.ProcessEnv } = {}) => ({
  forge: "forgetwo" as const,
  indexRepo: `${forge.host}/${INDEX}`,
  ...(extra.fork ? { fork: extra.fork } : {}),
  env: { ...env, PKG_ANNOUNCE_TOKEN: extra.token ?? TOKEN, ...extra.env },
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

const commits = () =>
  forge.calls.filter((c) => c.method === "POST" && c.path.endsWith("/repository/commits"));

beforeAll(async () => {
  ca = await createTestCa();
  env = { PKG_EXTRA_CA_CERTS: ca.certPath };
});
afterAll(async () => {
  await ca.remove();
});
beforeEach(async () => {
  forge = await ForgetwoServer.start(ca);
  forge.tokens.set(TOKEN, "alice");
  forge.createProject(INDEX, INDEX_FILES, { alice: 30 });
});
afterEach(async () => {
  await forge.stop();
});

describe("forgetwo API transport", () => {
  it("first announce: one atomic commit with actions on a new branch from the default branch, one merge request", async () => {
    const source = await packageSource(["1.2.3", "1.2"]);
    const report = await announceTo(options(), source, ["1.2.3", "1.2"]);
    expect(report).toMatchObject({
      status: "updated",
      requestNumber: 1,
      requestUrl: `${forge.url}/${INDEX}/-/merge_requests/1`,
    });
    const project = forge.project(INDEX);
    expect(commits()).toHaveLength(1);
    const body = commits()[0]?.body as Record<string, unknown>;
    expect(body.branch).toBe(BRANCH);
    expect(body.start_sha).toBe(project.branches.get("main"));
    expect(body.force).toBeUndefined();
    const actions = body.actions as Array<Record<string, unknown>>;
    expect(actions.every((a) => a.action === "create" && a.encoding === "base64")).toBe(true);
    expect(actions.map((a) => a.file_path)).toContain(ROOT);
    expect(actions.map((a) => a.file_path)).not.toContain("c/index.json");
    expect(rootTags(forge.file(INDEX, BRANCH, ROOT))).toEqual(["1.2", "1.2.3"]);
    const [mr] = forge.mergeRequests;
    expect(mr).toMatchObject({ sourceBranch: BRANCH, targetBranch: "main", title: `announce: ${PACKAGE}` });
    expect(mr?.description).toBe("Publisher-curated tag update for `acme/tool`.");
    // the project is addressed by its encoded nested path, then by id
    expect(forge.calls[0]?.path).toBe(`/projects/${encodeURIComponent(INDEX)}`);
    expect(forge.calls.every((c) => c.user === "alice")).toBe(true);
  });

  it("a second announce appends with last_commit_id and reuses the open merge request; an unchanged one writes nothing", async () => {
    const source = await packageSource(["1.2.3"]);
    await announceTo(options(), source, ["1.2.3"]);
    const first = forge.project(INDEX).branches.get(BRANCH) as string;
    await addTags(source, ["1.3.0"]);
    const second = await announceTo(options(), source, ["1.3.0"]);
    expect(second).toMatchObject({ status: "updated", requestNumber: 1 });
    const body = commits()[1]?.body as Record<string, unknown>;
    expect(body.start_sha).toBeUndefined();
    const update = (body.actions as Array<Record<string, unknown>>).find((a) => a.file_path === ROOT);
    expect(update).toMatchObject({ action: "update", last_commit_id: first });
    const head = forge.project(INDEX).branches.get(BRANCH) as string;
    expect(forge.objects.commit(head)?.parents).toEqual([first]);
    expect(rootTags(forge.file(INDEX, BRANCH, ROOT))).toEqual(["1.2.3", "1.3.0"]);
    expect(forge.mergeRequests).toHaveLength(1);

    const calls = forge.calls.length;
    const again = await announceTo(options(), source, ["1.3.0"]);
    expect(again).toMatchObject({ status: "unchanged", requestNumber: 1 });
    expect(forge.calls.slice(calls).filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("after a squash merge the branch is reset onto the default branch, so the next request does not conflict", async () => {
    const source = await packageSource(["1.2.3"]);
    await announceTo(options(), source, ["1.2.3"]);
    forge.squashMerge(1);
    forge.commitToDefault(INDEX, { "p/other/thing.json": "{}\n" });
    const main = forge.project(INDEX).branches.get("main") as string;
    await addTags(source, ["1.3.0"]);
    const report = await announceTo(options(), source, ["1.3.0"]);
    expect(report).toMatchObject({ status: "updated", requestNumber: 2 });
    const body = commits()[1]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ start_sha: main, force: true });
    const head = forge.project(INDEX).branches.get(BRANCH) as string;
    expect(forge.objects.commit(head)?.parents).toEqual([main]);
    expect(forge.conflicts(2)).toEqual([]);
    expect(rootTags(forge.file(INDEX, BRANCH, ROOT))).toEqual(["1.2.3", "1.3.0"]);
    forge.squashMerge(2);
    expect(rootTags(forge.file(INDEX, "main", ROOT))).toEqual(["1.2.3", "1.3.0"]);
  });

  it("a fork is made when missing; commits start from the upstream project; the request targets it", async () => {
    const source = await packageSource(["2.0.0"]);
    const report = await announceTo(options({ fork: `${forge.host}/alice-bot/index-fork` }), source, [
      "2.0.0",
    ]);
    expect(report).toMatchObject({ status: "updated", requestNumber: 1 });
    const upstream = forge.project(INDEX);
    const fork = forge.project("alice-bot/index-fork");
    expect(fork.forkedFrom).toBe(upstream);
    expect(forge.calls.find((c) => c.path.endsWith("/fork"))?.body).toEqual({
      namespace_path: "alice-bot",
      path: "index-fork",
      name: "index-fork",
    });
    expect(commits()[0]?.path).toBe(`/projects/${fork.id}/repository/commits`);
    expect(commits()[0]?.body).toMatchObject({
      start_project: upstream.id,
      start_sha: upstream.branches.get("main"),
    });
    expect(upstream.branches.has(BRANCH)).toBe(false);
    const [mr] = forge.mergeRequests;
    expect(mr?.source).toBe(fork);
    expect(mr?.target).toBe(upstream);

    await addTags(source, ["2.0.1"]);
    const second = await announceTo(options({ fork: `${forge.host}/alice-bot/index-fork` }), source, [
      "2.0.1",
    ]);
    expect(second.requestNumber).toBe(1);
    expect(rootTags(forge.file("alice-bot/index-fork", BRANCH, ROOT))).toEqual(["2.0.0", "2.0.1"]);
  });

  it("a rejected token is exit 80, and the token is in no message", async () => {
    const source = await packageSource(["1.0.0"]);
    const failed = await failure(announceTo(options({ token: "glpat-not-valid-xyz987" }), source, ["1.0.0"]));
    expect(failed.exitCode).toBe(80);
    expect(failed.message).not.toContain("glpat-not-valid-xyz987");
  });

  it("the CI job token as PKG_ANNOUNCE_TOKEN is refused before any request (82): the API transport needs an access token", async () => {
    const source = await packageSource(["1.0.0"]);
    const failed = await failure(
      announceTo(options({ token: "job-token-123456", env: { CI_JOB_TOKEN: "job-token-123456" } }), source, [
        "1.0.0",
      ]),
    );
    expect(failed).toMatchObject({ exitCode: 82, detail: "forge_capability_unavailable" });
    expect(forge.calls).toEqual([]);
  });

  it("429 on every try is exit 75 after the retries, each wait the one Retry-After asked for", async () => {
    forge.rateLimit = { remaining: Number.POSITIVE_INFINITY, status: 429, headers: { "retry-after": "2" } };
    const source = await packageSource(["1.0.0"]);
    const failed = await failure(announceTo(options(), source, ["1.0.0"]));
    expect(failed.exitCode).toBe(75);
    expect(forge.calls).toHaveLength(4);
    const gaps = forge.calls.slice(1).map((call, i) => call.at - (forge.calls[i]?.at ?? 0));
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1950);
  }, 30_000);

  it("two announces racing on one package both land: last_commit_id refuses the loser, which regenerates and retries", async () => {
    const first = await packageSource(["1.0.0"]);
    await announceTo(options(), first, ["1.0.0"]);
    forge.barrier.arm(2, (call) => call.method === "POST" && call.path.endsWith("/repository/commits"));
    const a = await packageSource(["1.1.0"]);
    const b = await packageSource(["1.2.0"]);
    const [ra, rb] = await Promise.all([
      announceTo(options(), a, ["1.1.0"]),
      announceTo(options(), b, ["1.2.0"]),
    ]);
    expect(ra.status).toBe("updated");
    expect(rb.status).toBe("updated");
    expect(rootTags(forge.file(INDEX, BRANCH, ROOT))).toEqual(["1.0.0", "1.1.0", "1.2.0"]);
    expect(commits().map((c) => c.status)).toEqual([201, 201, 400, 201]);
    expect(forge.mergeRequests).toHaveLength(1);
  });
});
