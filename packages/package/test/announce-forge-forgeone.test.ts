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
import { ForgeoneServer } from "./support/forgeone-server.js";

const TOKEN = "ghp_forgeone_test_token_0123456789";
const BRANCH = announceBranch(PACKAGE);

let ca: TestCa;
let forge: ForgeoneServer;
let env: NodeJS.ProcessEnv;

const options = (extra: { fork?: string; token?: string } = {}) => ({
  forge: "forgeone" as const,
  indexRepo: `${forge.host}/acme/index`,
  ...(extra.fork ? { fork: extra.fork } : {}),
  env: { ...env, PKG_ANNOUNCE_TOKEN: extra.token ?? TOKEN },
});

async function failure(promise: Promise<unknown>): Promise<{ exitCode: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isPkgError(error)) return { exitCode: error.exitCode, message: error.message };
    throw error;
  }
  throw new Error("expected a failure");
}

beforeAll(async () => {
  ca = await createTestCa();
  env = { PKG_EXTRA_CA_CERTS: ca.certPath };
});
afterAll(async () => {
  await ca.remove();
});
beforeEach(async () => {
  forge = await ForgeoneServer.start(ca);
  forge.tokens.set(TOKEN, "alice");
  forge.createRepo("acme/index", INDEX_FILES, ["alice"]);
});
afterEach(async () => {
  await forge.stop();
});

describe("forgeone API transport", () => {
  it("first announce: one commit on a new branch based on the default branch, one pull request", async () => {
    const source = await packageSource(["1.2.3", "1.2"]);
    const report = await announceTo(options(), source, ["1.2.3", "1.2"]);
    expect(report.status).toBe("updated");
    expect(report.requestNumber).toBe(1);
    expect(report.requestUrl).toBe(`${forge.url}/acme/index/pull/1`);
    const repo = forge.repo("acme/index");
    const head = repo.refs.get(BRANCH) as string;
    const commit = forge.objects.commit(head);
    expect(commit?.parents).toEqual([repo.refs.get("main")]);
    expect(commit?.message).toBe(`announce: ${PACKAGE}`);
    expect(rootTags(forge.file("acme/index", BRANCH, ROOT))).toEqual(["1.2", "1.2.3"]);
    // only the package's root and objects: the index repository renders c/index.json at deploy
    const written = [...forge.objects.entries(head).keys()].filter((path) => !(path in INDEX_FILES));
    expect(written.every((path) => path === ROOT || path.startsWith("p/acme/tool/o/sha256/"))).toBe(true);
    expect(written).not.toContain("c/index.json");
    const [pull] = forge.pulls;
    expect(pull).toMatchObject({
      headRef: BRANCH,
      baseRef: "main",
      title: `announce: ${PACKAGE}`,
      state: "open",
    });
    expect(pull?.body).toBe("Publisher-curated tag update for `acme/tool`.");
    // the branch was created (never force-moved), by a fast-forward-only path
    expect(
      forge.calls.filter((c) => c.method === "POST" && c.path === "/repos/acme/index/git/refs"),
    ).toHaveLength(1);
    // the token went to the forge's API, with every request, and nowhere else
    expect(forge.calls.every((c) => c.user === "alice")).toBe(true);
  });

  it("a second announce appends to the branch and reuses the open pull request; an unchanged one writes nothing", async () => {
    const source = await packageSource(["1.2.3"]);
    await announceTo(options(), source, ["1.2.3"]);
    const first = forge.repo("acme/index").refs.get(BRANCH) as string;
    await addTags(source, ["1.3.0"]);
    const second = await announceTo(options(), source, ["1.3.0"]);
    expect(second).toMatchObject({ status: "updated", requestNumber: 1 });
    const head = forge.repo("acme/index").refs.get(BRANCH) as string;
    expect(forge.objects.commit(head)?.parents).toEqual([first]);
    expect(rootTags(forge.file("acme/index", BRANCH, ROOT))).toEqual(["1.2.3", "1.3.0"]);
    expect(forge.pulls).toHaveLength(1);
    expect(forge.calls.filter((c) => c.method === "POST" && c.path.endsWith("/pulls"))).toHaveLength(1);
    const update = forge.calls.find((c) => c.method === "PATCH");
    expect(update?.path).toBe(`/repos/acme/index/git/refs/heads/${BRANCH}`);
    expect(update?.body).toEqual({ sha: head, force: false });

    const calls = forge.calls.length;
    const again = await announceTo(options(), source, ["1.3.0"]);
    expect(again).toMatchObject({ status: "unchanged", requestNumber: 1 });
    expect(forge.repo("acme/index").refs.get(BRANCH)).toBe(head);
    expect(forge.calls.slice(calls).filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("an unchanged announce opens a request when unmerged commits remain on the branch", async () => {
    const source = await packageSource(["1.2.3"]);
    await announceTo(options(), source, ["1.2.3"]);
    const head = forge.repo("acme/index").refs.get(BRANCH);
    const [closed] = forge.pulls;
    if (closed) closed.state = "closed";
    const report = await announceTo(options(), source, ["1.2.3"]);
    expect(report).toMatchObject({ status: "unchanged", requestNumber: 2 });
    expect(forge.repo("acme/index").refs.get(BRANCH)).toBe(head);
    expect(forge.calls.filter((c) => c.method === "POST" && c.path.endsWith("/git/commits"))).toHaveLength(1);
  });

  it("after a squash merge the branch is based on the default branch again, so the next request does not conflict", async () => {
    const source = await packageSource(["1.2.3"]);
    await announceTo(options(), source, ["1.2.3"]);
    const merged = forge.squashMerge(1);
    forge.commitToDefault("acme/index", { "p/other/thing.json": "{}\n" });
    const main = forge.repo("acme/index").refs.get("main") as string;
    const spent = forge.repo("acme/index").refs.get(BRANCH) as string;
    await addTags(source, ["1.3.0"]);
    const report = await announceTo(options(), source, ["1.3.0"]);
    expect(report).toMatchObject({ status: "updated", requestNumber: 2 });
    const head = forge.repo("acme/index").refs.get(BRANCH) as string;
    const commit = forge.objects.commit(head);
    // based on the default branch (first parent); the spent head kept as second parent so that the
    // ref update stays a fast-forward, the compare-and-swap
    expect(commit?.parents).toEqual([main, spent]);
    expect(forge.objects.mergeBase(main, head)).toBe(main);
    expect(forge.objects.isAncestor(merged, head)).toBe(true);
    expect(forge.conflicts(2)).toEqual([]);
    expect(rootTags(forge.file("acme/index", BRANCH, ROOT))).toEqual(["1.2.3", "1.3.0"]);
    // the default branch's other change is not undone by the request
    expect(forge.file("acme/index", BRANCH, "p/other/thing.json")?.toString()).toBe("{}\n");
    forge.squashMerge(2);
    expect(rootTags(forge.file("acme/index", "main", ROOT))).toEqual(["1.2.3", "1.3.0"]);
  });

  it("a fork is made when missing, the branch lives there and the request goes to the index repository", async () => {
    const source = await packageSource(["2.0.0"]);
    const report = await announceTo(options({ fork: `${forge.host}/alice-bot/index-fork` }), source, [
      "2.0.0",
    ]);
    expect(report).toMatchObject({ status: "updated", requestNumber: 1 });
    const fork = forge.repo("alice-bot/index-fork");
    expect(fork.parent?.name).toBe("index");
    expect(
      forge.calls.find((c) => c.method === "POST" && c.path === "/repos/acme/index/forks")?.body,
    ).toEqual({
      name: "index-fork",
      default_branch_only: true,
      organization: "alice-bot",
    });
    expect(forge.repo("acme/index").refs.has(BRANCH)).toBe(false);
    expect(rootTags(forge.file("alice-bot/index-fork", BRANCH, ROOT))).toEqual(["2.0.0"]);
    const [pull] = forge.pulls;
    expect(pull?.head).toBe(fork);
    expect(pull?.base).toBe(forge.repo("acme/index"));
    // the branch is based on the upstream default branch, not on the fork's copy
    expect(forge.objects.commit(fork.refs.get(BRANCH) as string)?.parents).toEqual([
      forge.repo("acme/index").refs.get("main"),
    ]);

    await addTags(source, ["2.0.1"]);
    const second = await announceTo(options({ fork: `${forge.host}/alice-bot/index-fork` }), source, [
      "2.0.1",
    ]);
    expect(second.requestNumber).toBe(1);
    expect(forge.calls.filter((c) => c.method === "POST" && c.path.endsWith("/forks"))).toHaveLength(1);
    expect(rootTags(forge.file("alice-bot/index-fork", BRANCH, ROOT))).toEqual(["2.0.0", "2.0.1"]);
  });

  it("a repository that is not a fork of the index is refused (64)", async () => {
    forge.createRepo("alice/index", INDEX_FILES, ["alice"]);
    const source = await packageSource(["1.0.0"]);
    const failed = await failure(
      announceTo(options({ fork: `${forge.host}/alice/index` }), source, ["1.0.0"]),
    );
    expect(failed.exitCode).toBe(64);
    expect(failed.message).toContain("is not a fork of");
  });

  it("a rejected token is exit 80, and the token is in no message", async () => {
    const source = await packageSource(["1.0.0"]);
    const failed = await failure(
      announceTo(options({ token: "ghp_not_a_valid_token_9876" }), source, ["1.0.0"]),
    );
    expect(failed.exitCode).toBe(80);
    expect(failed.message).toContain("401");
    expect(failed.message).not.toContain("ghp_not_a_valid_token_9876");
  });

  it("no push access to the index repository without a fork is exit 80", async () => {
    forge.tokens.set("ghp_reader_token_abcdef", "bob");
    const source = await packageSource(["1.0.0"]);
    const failed = await failure(
      announceTo(options({ token: "ghp_reader_token_abcdef" }), source, ["1.0.0"]),
    );
    expect(failed.exitCode).toBe(80);
    expect(failed.message).toContain("--fork");
  });

  it("429 on every try is exit 75 after the retries, each wait the one Retry-After asked for", async () => {
    forge.rateLimit = { remaining: Number.POSITIVE_INFINITY, status: 429, headers: { "retry-after": "2" } };
    const source = await packageSource(["1.0.0"]);
    const failed = await failure(announceTo(options(), source, ["1.0.0"]));
    expect(failed.exitCode).toBe(75);
    expect(forge.calls).toHaveLength(4);
    const gaps = forge.calls.slice(1).map((call, i) => call.at - (forge.calls[i]?.at ?? 0));
    // lower bounds only: the backoff alone would wait about 1 s before the second try
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1950);
  }, 30_000);

  it("two announces racing on one package both land: the loser reads again, regenerates and retries", async () => {
    const first = await packageSource(["1.0.0"]);
    await announceTo(options(), first, ["1.0.0"]);
    // both read the branch head before either moves it
    forge.barrier.arm(2, (call) => call.method === "PATCH" && call.path.includes("/git/refs/heads/"));
    const a = await packageSource(["1.1.0"]);
    const b = await packageSource(["1.2.0"]);
    const [ra, rb] = await Promise.all([
      announceTo(options(), a, ["1.1.0"]),
      announceTo(options(), b, ["1.2.0"]),
    ]);
    expect(ra.status).toBe("updated");
    expect(rb.status).toBe("updated");
    expect(rootTags(forge.file("acme/index", BRANCH, ROOT))).toEqual(["1.0.0", "1.1.0", "1.2.0"]);
    const updates = forge.calls.filter((c) => c.method === "PATCH");
    expect(updates.map((c) => c.status)).toEqual([200, 422, 200]);
    expect(forge.pulls).toHaveLength(1);
  });
});
