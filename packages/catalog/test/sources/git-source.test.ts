import { execFileSync } from "node:child_process";
import { cp, readdir, realpath, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SourceEntry } from "../../src/config/types.js";
import { readSources } from "../../src/sources/read-sources.js";
import type { LoadedIndex } from "../../src/sources/types.js";
import { catalogConfig, ocxIndexDir, pathSource, summary } from "../support/source-fixtures.js";

const quiet = { warn: () => {} };

function git(cwd: string, ...args: string[]): string {
  const identity = [
    "-c",
    "user.name=Test",
    "-c",
    "user.email=test@example.invalid",
    "-c",
    "init.defaultBranch=main",
  ];
  return execFileSync("git", [...identity, ...args], { cwd, encoding: "utf8" }).trim();
}

async function checkouts(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith("pkg-catalog-git-"));
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { exitCode: number; message: string };
  }
  throw new Error("expected a failure");
}

describe("a git source from a local bare repository", () => {
  let temp: TempDir;
  let remote: string;
  let commit: string;
  let fromPath: LoadedIndex;
  const gitSource = (extra: Partial<SourceEntry> = {}): SourceEntry =>
    ({ kind: "git", index: 0, git: remote, dir: "site/index", ...extra }) as SourceEntry;

  beforeAll(async () => {
    temp = await tempDir("catalog-git-");
    const work = join(temp.path, "work");
    await cp(ocxIndexDir, join(work, "site", "index"), { recursive: true });
    git(temp.path, "init", "--quiet", work);
    git(work, "add", ".");
    git(work, "commit", "--quiet", "-m", "index");
    git(work, "tag", "v1");
    commit = git(work, "rev-parse", "HEAD");
    // A branch whose tree holds links out of the checkout: a root, and a directory to use as `dir`.
    git(work, "checkout", "--quiet", "-b", "hostile");
    await rm(join(work, "site/index/p/astral-sh/uv.json"));
    await symlink(join(ocxIndexDir, "p/astral-sh/uv.json"), join(work, "site/index/p/astral-sh/uv.json"));
    await symlink(ocxIndexDir, join(work, "escape"));
    git(work, "add", ".");
    git(work, "commit", "--quiet", "-m", "hostile");
    git(work, "checkout", "--quiet", "main");
    git(temp.path, "clone", "--quiet", "--bare", work, "remote.git");
    remote = pathToFileURL(join(temp.path, "remote.git")).href;
    [fromPath] = (await readSources(catalogConfig([pathSource(0, ocxIndexDir)]), quiet)) as [LoadedIndex];
  });
  afterAll(async () => {
    await temp?.remove();
  });

  it("yields the same index as the path source, at HEAD, a branch, a tag and a commit, and removes its checkout", async () => {
    const before = await checkouts();
    for (const ref of [undefined, "main", "v1", commit]) {
      const [fromGit] = await readSources(
        catalogConfig([gitSource(ref === undefined ? {} : { ref })]),
        quiet,
      );
      if (fromGit === undefined) throw new Error("no index");
      expect(summary(fromGit), ref).toEqual(summary(fromPath));
    }
    expect(await checkouts()).toEqual(before);
  });

  it("fails with exit 69 naming the remote, never its credentials", async () => {
    const error = await failure(
      readSources(catalogConfig([gitSource({ git: "https://user:s3cret@127.0.0.1:9/nope.git" })]), quiet),
    );
    expect(error.exitCode).toBe(69);
    expect(error.message).toMatch(/^sources\[0\]: cannot clone https:\/\/\*\*\*@127\.0\.0\.1:9\/nope\.git/);
    expect(error.message).not.toContain("s3cret");
    const missingRef = await failure(
      readSources(catalogConfig([gitSource({ ref: "no-such-branch" })]), quiet),
    );
    expect(missingRef.exitCode).toBe(69);
    expect(missingRef.message).toContain(`cannot clone ${remote} at no-such-branch`);
  });

  it("refuses values git could read as options, before running git", async () => {
    for (const extra of [{ git: "--upload-pack=touch /tmp/pwned" }, { ref: "--upload-pack=x" }]) {
      const error = await failure(readSources(catalogConfig([gitSource(extra)]), quiet));
      expect(error.exitCode).toBe(65);
      expect(error.message).toMatch(/^sources\[0\]\.(git|ref): "--upload-pack=.*" must not start with "-"$/);
    }
  });

  it("refuses a dir that leaves the checkout, by its name or through a link: PATH_ESCAPE, exit 65", async () => {
    const error = await failure(readSources(catalogConfig([gitSource({ dir: "../.." })]), quiet));
    expect(error).toMatchObject({ exitCode: 65, code: "PATH_ESCAPE", keyPath: "sources[0].dir" });
    expect(error.message).toMatch(
      /^PATH_ESCAPE: sources\[0\]\.dir "\.\.\/\.\." resolves to \S+, outside the checkout$/,
    );
    const linked = await failure(
      readSources(catalogConfig([gitSource({ ref: "hostile", dir: "escape" })]), quiet),
    );
    expect(linked).toMatchObject({
      exitCode: 65,
      code: "PATH_ESCAPE",
      keyPath: "sources[0].dir",
      message: `PATH_ESCAPE: sources[0].dir "escape" resolves through a link in the repository to ${await realpath(ocxIndexDir)}, outside the checkout`,
    });
  });

  it("skips a committed root that links out of the checkout", async () => {
    const warnings: string[] = [];
    const [index] = await readSources(catalogConfig([gitSource({ ref: "hostile" })]), {
      warn: (line) => warnings.push(line),
    });
    expect(index?.packages.map((p) => p.path)).not.toContain("astral-sh/uv");
    expect(index?.packages).toHaveLength(61);
    expect(warnings).toEqual([
      `sources[0]: skipped package astral-sh/uv: ${remote}@hostile:site/index/p/astral-sh/uv.json: links outside the index`,
    ]);
  });
});
