import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  createTestCa,
  runCli,
  startHttpServer,
  type TempDir,
  type TestCa,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogBin, ocxIndexFixture } from "../support/catalog-project.js";
import { treeDigests } from "../support/file-tree.js";

describe("one index through a path, a url and a git source", () => {
  let temp: TempDir;
  let ca: TestCa;
  let server: TestServer;

  /** Builds a catalog whose only source is `source` (the root index) and returns its tree. */
  async function build(name: string, source: Record<string, unknown>): Promise<Record<string, string>> {
    const dir = join(temp.path, name);
    await mkdir(dir, { recursive: true });
    const config = {
      sources: [{ ...source, root: true }],
      brand: { title: "Same" },
      siteUrl: "https://x.test",
    };
    await writeFile(join(dir, "catalog.config.json"), JSON.stringify(config));
    const built = await runCli(catalogBin, ["build", "--out", "site"], {
      cwd: dir,
      env: { NODE_EXTRA_CA_CERTS: ca.certPath, XDG_CACHE_HOME: join(dir, "cache") },
    });
    expect(built.stderr).toMatch(/^built 62 packages from 1 index into /m);
    expect(built.code).toBe(0);
    return treeDigests(join(dir, "site"));
  }

  beforeAll(async () => {
    temp = await tempDir("catalog-same-");
    ca = await createTestCa();
    server = await startHttpServer(
      async (req, res) => {
        const path = new URL(req.url ?? "/", "https://x").pathname;
        const body = await readFile(join(ocxIndexFixture, path)).catch(() => undefined);
        res.writeHead(body === undefined ? 404 : 200).end(body);
      },
      { tls: ca },
    );
    await cp(ocxIndexFixture, join(temp.path, "path", "index"), { recursive: true });
    const work = join(temp.path, "work");
    await cp(ocxIndexFixture, join(work, "published"), { recursive: true });
    const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "ignore" });
    git(temp.path, "init", "--quiet", "-b", "main", work);
    git(work, "add", ".");
    git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "index");
    git(temp.path, "clone", "--quiet", "--bare", work, "remote.git");
  });
  afterAll(async () => {
    await server?.stop();
    await ca?.remove();
    await temp?.remove();
  });

  it("builds the same site, file for file", async () => {
    const fromPath = await build("path", { path: "./index" });
    const fromUrl = await build("url", { url: server.url });
    const remote = pathToFileURL(join(temp.path, "remote.git")).href;
    const fromGit = await build("git", { git: remote, dir: "published" });
    expect(Object.keys(fromPath).length).toBeGreaterThan(900);
    expect(fromUrl).toEqual(fromPath);
    expect(fromGit).toEqual(fromPath);
  });
});
