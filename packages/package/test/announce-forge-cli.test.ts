import { join } from "node:path";
import {
  createTestCa,
  type FaultProxy,
  type RunningRegistry,
  startFaultProxy,
  startRegistry,
  type TempDir,
  type TestCa,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { announceBranch } from "../src/announce/forge/branch.js";
import { INDEX_FILES, PACKAGE, ROOT, rootTags } from "./support/announce-forge.js";
import { writeSampleTree } from "./support/fixture-tree.js";
import { ForgeoneServer } from "./support/forgeone-server.js";
import { GitHttpServer } from "./support/git-http-server.js";
import { runPkg } from "./support/run-pkg.js";

const TOKEN = "ghp_cli_forge_token_5566778899";
const DEPLOY_USER = "gitlab+deploy-token-9";
const DEPLOY_TOKEN = "gldt-cli-deploy-token-1122";

let ca: TestCa;
let work: TempDir;
let registry: RunningRegistry;
let proxy: FaultProxy;

/** `pkg package announce --package acme/tool --tags-file ... --format json` plus `args`, the package read through the proxy. */
function announce(args: string[], env: Record<string, string>) {
  return runPkg(
    [
      "package",
      "announce",
      "--package",
      PACKAGE,
      "--tags",
      "1.0.0,1.0",
      "--repository",
      `${proxy.host}/acme/tool`,
      "--label",
      "example.org",
      "--owner",
      "alice:7",
      "--format",
      "json",
      ...args,
    ],
    { env: { PKG_EXTRA_CA_CERTS: ca.certPath, ...env } },
  );
}

beforeAll(async () => {
  ca = await createTestCa();
  work = await tempDir("pkg-announce-forge-cli-");
  registry = await startRegistry();
  // every request to the registry passes here and is recorded with its headers
  proxy = await startFaultProxy(registry.url);
  const tree = join(work.path, "tree");
  await writeSampleTree(tree, "a");
  const bundle = join(work.path, "tool.tar.zst");
  const created = await runPkg(["package", "create", tree, "-o", bundle]);
  expect(created.code, created.stderr).toBe(0);
  const pushed = await runPkg([
    "package",
    "push",
    "-i",
    `${registry.host}/acme/tool:1.0.0`,
    "-p",
    "linux/amd64",
    "--cascade",
    bundle,
  ]);
  expect(pushed.code, pushed.stderr).toBe(0);
});
afterAll(async () => {
  await proxy?.stop();
  await registry?.stop();
  await work?.remove();
  await ca?.remove();
});

describe("pkg package announce to a forge", () => {
  it("--index-repo HOST/NS/PROJECT --forge forgeone opens the pull request; PKG_ANNOUNCE_TOKEN goes to the forge's API only", async () => {
    const forge = await ForgeoneServer.start(ca);
    try {
      forge.tokens.set(TOKEN, "alice");
      forge.createRepo("acme/index", INDEX_FILES, ["alice"]);
      const result = await announce(["--index-repo", `${forge.host}/acme/index`, "--forge", "forgeone"], {
        PKG_ANNOUNCE_TOKEN: TOKEN,
      });
      expect(result.code, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(report).toMatchObject({
        package: PACKAGE,
        destination: `forgeone ${forge.host}/acme/index`,
        status: "updated",
        requestUrl: `${forge.url}/acme/index/pull/1`,
        requestNumber: 1,
        writtenPaths: [],
      });
      expect(rootTags(forge.file("acme/index", announceBranch(PACKAGE), ROOT))).toEqual(["1.0", "1.0.0"]);
      expect(forge.calls.every((c) => c.user === "alice")).toBe(true);
      expect(proxy.requests.length).toBeGreaterThan(0);
      for (const request of proxy.requests) expect(JSON.stringify(request.headers)).not.toContain(TOKEN);
      expect(result.stderr).not.toContain(TOKEN);
    } finally {
      await forge.stop();
    }
  });

  it("--transport git pushes once with the merge-request push options", async () => {
    const host = await GitHttpServer.start(ca);
    try {
      host.users.set(DEPLOY_USER, { password: DEPLOY_TOKEN, kind: "token" });
      await host.createRepo("acme/index", INDEX_FILES);
      const result = await announce(
        ["--index-repo", `${host.host}/acme/index`, "--forge", "forgetwo", "--transport", "git"],
        { PKG_ANNOUNCE_GIT_TOKEN: DEPLOY_TOKEN, PKG_ANNOUNCE_GIT_USER: DEPLOY_USER },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        status: "updated",
        requestUrl: `${host.url}/acme/index/-/merge_requests/1`,
        requestNumber: 1,
      });
      expect((await host.pushes("acme/index"))[0]?.options).toContain("merge_request.create");
    } finally {
      await host.stop();
    }
  });

  it.each([
    [["--index-repo", "127.0.0.1:9/acme/sub/index", "--forge", "forgeone"], "nested namespace"],
    [["--index-repo", "https://github.com/acme/index"], "is a URL"],
    [["--index-repo", "forge.example.org/acme/index"], "--forge"],
    [["--index-repo", "github.com/acme/index", "--forge", "forgetwo"], "is forgeone"],
    [["--index-repo", "gitlab.com/acme/index", "--fork", "gitlab.example.org/me/index"], "one host"],
    [["--index-repo", "acme/index", "--fork", "acme/index"], "index repository itself"],
    [["--index-repo", "acme/index", "--transport", "git"], "only for forgetwo"],
    [["--index-repo", "gitlab.com/acme/index", "--fork", "me/index", "--transport", "git"], "one host"],
    [
      ["--index-repo", "gitlab.com/acme/index", "--fork", "gitlab.com/me/index", "--transport", "git"],
      "--fork",
    ],
    [["--index-repo", "acme/index", "--transport", "ssh"], "api or git"],
    [["--out", "/tmp/x", "--index-repo", "acme/index"], "cannot be combined"],
    [["--fork", "me/index"], "--index-repo"],
  ])("%j is a usage error (64) naming %s", async (args, said) => {
    const result = await announce(args, { PKG_ANNOUNCE_TOKEN: TOKEN });
    expect(result.code, result.stderr).toBe(64);
    expect(result.stderr).toContain(said);
  });

  it("without PKG_ANNOUNCE_TOKEN the api transport is exit 80 before anything is read", async () => {
    const before = proxy.requests.length;
    const result = await announce(["--index-repo", "127.0.0.1:9/acme/index", "--forge", "forgeone"], {});
    expect(result.code, result.stderr).toBe(80);
    expect(result.stderr).toContain("PKG_ANNOUNCE_TOKEN");
    expect(proxy.requests.length).toBe(before);
  });
});
