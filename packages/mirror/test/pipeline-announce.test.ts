import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { silentLogger } from "@pkg/common";
import { createHttpClient, type PooledHttpClient } from "@pkg/net";
import type { MemoryTarget } from "@pkg/oci";
import { createTestCa, type TempDir, type TestCa, tempDir } from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  addTags,
  INDEX_FILES,
  PACKAGE,
  packageSource,
  ROOT,
  rootTags,
} from "../../package/test/support/announce-forge.js";
import type { ApiCall } from "../../package/test/support/forge-server-kit.js";
import { ForgeoneServer } from "../../package/test/support/forgeone-server.js";
import { ForgetwoServer } from "../../package/test/support/forgetwo-server.js";
import { GitHttpServer } from "../../package/test/support/git-http-server.js";
import { type AnnounceTags, type RunAnnounceOptions, runAnnounce } from "../src/pipeline/announce.js";
import { loadMirrorSpec } from "../src/spec/loader.js";
import { type Json, spec } from "./support/spec-case.js";

const TOKEN = "ghp_pipeline_announce_token_31337";
const JOB_TOKEN = "glcbt-pipeline-job-token-2718";
const OWNERS = [{ github: "alice", github_id: 7 }];

let ca: TestCa;
let work: TempDir;
let http: PooledHttpClient;

beforeAll(async () => {
  ca = await createTestCa();
  http = createHttpClient({ env: { PKG_EXTRA_CA_CERTS: ca.certPath } });
});
afterAll(async () => {
  await http?.close();
  await ca?.remove();
});
beforeEach(async () => {
  work = await tempDir("pkg-pipeline-announce-");
  await mkdir(join(work.path, ".git"));
});
afterEach(async () => {
  await work?.remove();
});

/** A spec pushing to registry.example/acme/tool with this `announce` block, loaded as the commands load it. */
async function loadSpec(announce: Json) {
  const file = join(work.path, "mirror.yml");
  await writeFile(
    file,
    spec({ target: { registry: "registry.example", repository: "acme/tool" }, announce }),
  );
  const loaded = await loadMirrorSpec(file);
  if (!loaded.spec.target) throw new Error("no target");
  return { announce: loaded.spec.announce, target: loaded.spec.target };
}

/** The environment a CI job would hand the step: no credential unless given. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: "/nonexistent-pkg-test-home",
    PKG_EXTRA_CA_CERTS: ca.certPath,
    ...extra,
  };
}

function options(
  source: MemoryTarget,
  tags: AnnounceTags,
  more: Partial<RunAnnounceOptions> = {},
): RunAnnounceOptions {
  return { tags, source, env: env(), http, log: silentLogger, label: "example.org", owners: OWNERS, ...more };
}

const these = (...tags: string[]): AnnounceTags => ({ kind: "tags", tags });
const isWrite = (call: ApiCall) => call.method !== "GET";

describe("runAnnounce: the statuses of the spec's table", () => {
  let forge: ForgeoneServer;
  beforeEach(async () => {
    forge = await ForgeoneServer.start(ca);
    forge.tokens.set(TOKEN, "alice");
    forge.createRepo("acme/index", INDEX_FILES, ["alice"]);
  });
  afterEach(async () => {
    await forge.stop();
  });
  const forgeoneSpec = () =>
    loadSpec({ package: PACKAGE, index_repo: `${forge.host}/acme/index`, forge: "forgeone" });

  it("announced opens the request with the tags added; nothing new is nothing_to_announce; no tag at all makes no call", async () => {
    const s = await loadSpec({ package: PACKAGE, index_repo: `${forge.host}/acme/index`, forge: "forgeone" });
    const source = await packageSource(["1.0.0", "1.0"]);
    const withToken = { env: env({ PKG_ANNOUNCE_TOKEN: TOKEN }) };
    const first = await runAnnounce(s, options(source, these("1.0.0", "1.0"), withToken));
    expect(first).toEqual({
      package: PACKAGE,
      destination: `forgeone ${forge.host}/acme/index`,
      status: "announced",
      tags: ["1.0.0", "1.0"],
      request_url: `${forge.url}/acme/index/pull/1`,
      change: "updated",
    });
    const pull = forge.pulls[0];
    expect(rootTags(forge.file("acme/index", pull?.headRef ?? "", ROOT))).toEqual(["1.0", "1.0.0"]);

    const again = await runAnnounce(s, options(source, these("1.0.0"), withToken));
    expect(again).toMatchObject({ status: "nothing_to_announce", change: "unchanged" });
    expect(forge.pulls).toHaveLength(1);

    const calls = forge.calls.length;
    const none = await runAnnounce(s, options(source, these(), withToken));
    expect(none).toEqual({
      package: PACKAGE,
      destination: `forgeone ${forge.host}/acme/index`,
      status: "nothing_to_announce",
    });
    expect(forge.calls.length).toBe(calls);
  });

  it("skipped_no_credential: the api transport without PKG_ANNOUNCE_TOKEN, the git transport with nothing on its ladder; the forge is not asked", async () => {
    const source = await packageSource(["1.0.0"]);
    const api = await runAnnounce(
      await forgeoneSpec(),
      options(source, these("1.0.0"), { env: env({ PKG_ANNOUNCE_TOKEN: "  " }) }),
    );
    expect(api).toMatchObject({ status: "skipped_no_credential" });
    expect(forge.calls).toHaveLength(0);
    const git = await runAnnounce(
      await loadSpec({
        package: PACKAGE,
        index_repo: "127.0.0.1:9/acme/index",
        forge: "forgetwo",
        transport: "git",
      }),
      // a job token counts only on its own forge host
      options(source, these("1.0.0"), { env: env({ CI_JOB_TOKEN: JOB_TOKEN, CI_SERVER_URL: forge.url }) }),
    );
    expect(git).toMatchObject({
      status: "skipped_no_credential",
      destination: "forgetwo 127.0.0.1:9/acme/index",
    });
  });

  it("interrupted: a signal aborted before the call, or while it writes; the branch never moves", async () => {
    const s = await forgeoneSpec();
    const source = await packageSource(["1.0.0"]);
    const withToken = env({ PKG_ANNOUNCE_TOKEN: TOKEN });
    const early = new AbortController();
    early.abort("SIGTERM");
    expect(
      await runAnnounce(s, options(source, these("1.0.0"), { env: withToken, signal: early.signal })),
    ).toMatchObject({ status: "interrupted" });
    expect(forge.calls).toHaveLength(0);

    // the first write is held at the forge until the run is stopped
    forge.barrier.arm(2, isWrite);
    const stop = new AbortController();
    const running = runAnnounce(s, options(source, these("1.0.0"), { env: withToken, signal: stop.signal }));
    while (!forge.calls.some(isWrite)) await new Promise((resolve) => setImmediate(resolve));
    stop.abort("SIGINT");
    expect(await running).toEqual({
      package: PACKAGE,
      destination: `forgeone ${forge.host}/acme/index`,
      status: "interrupted",
    });
    const held = forge.calls.find(isWrite) as ApiCall;
    await forge.barrier.pass(held);
    expect(forge.pulls).toHaveLength(0);
    expect([...forge.repo("acme/index").refs.keys()]).toEqual(["main"]);
  });

  it("a dry run reads the committed entry and says updated or unchanged: no write reaches the forge, no request is opened", async () => {
    const s = await forgeoneSpec();
    const source = await packageSource(["1.0.0", "1.0"]);
    const run = (dryRun: boolean) =>
      runAnnounce(
        s,
        options(source, these("1.0.0", "1.0"), { env: env({ PKG_ANNOUNCE_TOKEN: TOKEN }), dryRun }),
      );
    expect(await run(true)).toEqual({
      package: PACKAGE,
      destination: `forgeone ${forge.host}/acme/index`,
      status: "announced",
      tags: ["1.0.0", "1.0"],
      change: "updated",
      dry_run: true,
    });
    expect(forge.calls.filter(isWrite)).toEqual([]);
    expect(forge.pulls).toHaveLength(0);

    expect(await run(false)).toMatchObject({ status: "announced", change: "updated" });
    forge.squashMerge(1);
    const before = forge.calls.length;
    expect(await run(true)).toMatchObject({
      status: "nothing_to_announce",
      change: "unchanged",
      dry_run: true,
    });
    expect(forge.calls.slice(before).filter(isWrite)).toEqual([]);
  });
});

describe("runAnnounce: a dry run on forgetwo opens nothing", () => {
  it("the API transport with a fork not made yet: reads only, the fork is not created", async () => {
    const forge = await ForgetwoServer.start(ca);
    try {
      forge.tokens.set(TOKEN, "alice");
      forge.createProject("acme/index", INDEX_FILES, { alice: 30 });
      const s = await loadSpec({
        package: PACKAGE,
        index_repo: `${forge.host}/acme/index`,
        fork: `${forge.host}/alice/index`,
        forge: "forgetwo",
      });
      const source = await packageSource(["2.0.0"]);
      const outcome = await runAnnounce(
        s,
        options(source, these("2.0.0"), { env: env({ PKG_ANNOUNCE_TOKEN: TOKEN }), dryRun: true }),
      );
      expect(outcome).toMatchObject({ status: "announced", change: "updated", dry_run: true });
      expect(forge.calls.length).toBeGreaterThan(0);
      expect(forge.calls.filter(isWrite)).toEqual([]);
      expect(forge.projects.map((p) => p.path)).toEqual(["acme/index"]);
      expect(forge.mergeRequests).toEqual([]);
    } finally {
      await forge.stop();
    }
  });
});

describe("runAnnounce: the git transport", () => {
  let host: GitHttpServer;
  beforeEach(async () => {
    host = await GitHttpServer.start(ca);
    host.users.set("gitlab-ci-token", { password: JOB_TOKEN, kind: "job" });
    await host.createRepo("acme/index", INDEX_FILES);
  });
  afterEach(async () => {
    await host.stop();
  });

  it("a dry run reads the default branch and pushes nothing; the real run then pushes once", async () => {
    const s = await loadSpec({
      package: PACKAGE,
      index_repo: `${host.host}/acme/index`,
      forge: "forgetwo",
      transport: "git",
    });
    const source = await packageSource(["1.0.0"]);
    const job = env({ CI_JOB_TOKEN: JOB_TOKEN, CI_SERVER_URL: host.url });
    const dry = await runAnnounce(s, options(source, these("1.0.0"), { env: job, dryRun: true }));
    expect(dry).toMatchObject({ status: "announced", change: "updated", dry_run: true });
    expect(await host.pushes("acme/index")).toEqual([]);
    expect(host.calls.some((c) => c.service === "git-receive-pack")).toBe(false);
    const real = await runAnnounce(s, options(source, these("1.0.0"), { env: job }));
    expect(real).toMatchObject({
      status: "announced",
      request_url: `${host.url}/acme/index/-/merge_requests/1`,
    });
    expect(await host.pushes("acme/index")).toHaveLength(1);
  });

  it("a job token off the index project's allowlist (77) and a project refusing job-token pushes (82) are failed", async () => {
    const s = await loadSpec({
      package: PACKAGE,
      index_repo: `${host.host}/acme/index`,
      forge: "forgetwo",
      transport: "git",
    });
    const source = await packageSource(["1.0.0"]);
    const job = { env: env({ CI_JOB_TOKEN: JOB_TOKEN, CI_SERVER_URL: host.url }) };
    host.jobTokenAllowlisted = false;
    const allowlist = await runAnnounce(s, options(source, these("1.0.0"), job));
    expect(allowlist).toMatchObject({ status: "failed", detail: "forge_publisher_not_allowlisted" });
    expect(allowlist?.error).toMatch(/allowlist/i);
    expect(allowlist?.error).not.toContain(JOB_TOKEN);
    host.jobTokenAllowlisted = true;
    host.jobTokenPush = false;
    const capability = await runAnnounce(s, options(source, these("1.0.0"), job));
    expect(capability).toMatchObject({ status: "failed", detail: "forge_capability_unavailable" });
    expect(await host.mergeRequests("acme/index")).toEqual([]);
  });
});

describe("runAnnounce: additive", () => {
  it("every tag the repository holds joins the committed entry; committed tags and yank markers stay", async () => {
    const s = await loadSpec({ package: PACKAGE });
    const out = join(work.path, "index");
    const source = await packageSource(["1.0.0"]);
    expect(await runAnnounce(s, options(source, these("1.0.0"), { out }))).toMatchObject({
      status: "announced",
      destination: out,
    });
    // a human yanks 1.0.0 in the index; the repository drops nothing and gains 1.1.0
    const rootFile = join(out, ROOT);
    const root = JSON.parse(await readFile(rootFile, "utf8"));
    const yanked = { reason: "miscompiled", at: "2026-01-02T03:04:05Z" };
    root.tags["1.0.0"].yanked = yanked;
    await writeFile(rootFile, `${JSON.stringify(root, null, 2)}\n`);
    await addTags(source, ["1.1.0", "latest"]);
    const caughtUp = await runAnnounce(s, options(source, { kind: "every" }, { out }));
    expect(caughtUp).toMatchObject({ status: "announced", tags: ["1.1.0", "latest"] });
    const after = JSON.parse(await readFile(rootFile, "utf8"));
    expect(Object.keys(after.tags).sort()).toEqual(["1.0.0", "1.1.0", "latest"]);
    expect(after.tags["1.0.0"].yanked).toEqual(yanked);
  });
});
