import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogBin, memoFileKind } from "../support/catalog-project.js";
import { bundleClient } from "../support/client-bundle.js";
import { treeDigests } from "../support/file-tree.js";
import { publishRoot, readJson } from "../support/source-fixtures.js";
import { type SyntheticIndex, writeSyntheticIndex } from "../support/synthetic-index.js";

interface Report {
  packagePages: { rendered: number; reused: number };
  packageData: { read: number; reused: number };
}

let work: TempDir;
let index: SyntheticIndex;
let config: string;
let out: string;
let cache: string;

async function build(outDir = out, cacheDir = cache) {
  const result = await runCli(
    catalogBin,
    ["build", config, "--out", outDir, "--cache-dir", cacheDir, "--format", "json"],
    { cwd: dirname(config) },
  );
  return { ...result, report: result.code === 0 ? (JSON.parse(result.stdout) as Report) : undefined };
}

async function cleanBuild(): Promise<Record<string, string>> {
  const clean = join(work.path, "clean");
  await rm(clean, { recursive: true, force: true });
  const result = await build(clean, join(work.path, "clean-cache"));
  expect(result.code, result.stderr).toBe(0);
  return treeDigests(clean);
}

async function editPackage(i: number, description: string): Promise<void> {
  const path = index.packages[i]?.path as string;
  const root = await readJson(join(index.dir, "p", `${path}.json`));
  root.desc = { ...(root.desc as object), description };
  await publishRoot(index.dir, path, `${JSON.stringify(root, null, 2)}\n`);
}

/** The id of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", ""]);
  return child.pid as number;
}

const hasChattr = spawnSync("chattr", ["--help"]).error === undefined;

beforeAll(async () => {
  bundleClient();
  work = await tempDir("catalog-interrupted-");
  index = await writeSyntheticIndex(join(work.path, "project", "index"), { packages: 8, readmeBytes: 600 });
  config = join(work.path, "project", "catalog.config.json");
  await writeFile(
    config,
    JSON.stringify({ sources: [{ path: "./index", root: true }], brand: { title: "Stopped" } }),
  );
  out = join(work.path, "site");
  cache = join(work.path, "cache");
  const first = await build();
  expect(first.code, first.stderr).toBe(0);
});

afterAll(async () => {
  await work?.remove();
});

describe("pkg-catalog build after a build that stopped midway", () => {
  it("removes the working directories stopped builds left beside the output, and nothing else", async () => {
    const hex = "0123456789ab";
    const stale = [`site.stage-${deadPid()}-${hex}`, `site.tmp-${deadPid()}-${hex}`, `site.old-${hex}`];
    const running = `site.stage-${process.pid}-${hex}`;
    const newer = `site.tmp-${deadPid()}-ba9876543210`;
    const kept = [running, newer, "site.tmp-x", `other.tmp-${hex}`];
    for (const name of [...stale, ...kept]) {
      await mkdir(join(work.path, name, "p"), { recursive: true });
      await writeFile(join(work.path, name, "p", "a.json"), "{}");
      // an hour old, except one changed after this build started
      const at = new Date(Date.now() + (name === newer ? 3600_000 : -3600_000));
      await utimes(join(work.path, name), at, at);
    }

    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    const left = await readdir(work.path);
    for (const name of stale) expect(left, name).not.toContain(name);
    for (const name of kept) expect(left, name).toContain(name);
    for (const name of kept) await rm(join(work.path, name), { recursive: true });
  });

  it.skipIf(!hasChattr)(
    "finishes an update in place that stopped between its renames, then goes on from it",
    async () => {
      await editPackage(3, "Changed before the update stopped.");
      // the search index is moved in after the package's page and index files: with its directory
      // immutable, the update stops there, half done
      const assets = join(out, "assets");
      execFileSync("chattr", ["+i", assets]);
      let stopped: Awaited<ReturnType<typeof build>>;
      try {
        stopped = await build();
      } finally {
        execFileSync("chattr", ["-i", assets]);
      }
      expect(stopped.code, stopped.stderr).toBe(74);
      expect(stopped.stderr).toMatch(/EPERM \(the next build finishes the update\)/);
      const builds = await readdir(join(cache, "builds"));
      expect(builds.some((name) => name.endsWith(".commit.json"))).toBe(true);
      expect((await readdir(work.path)).some((name) => name.startsWith("site.stage-"))).toBe(true);

      const result = await build();
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain("finished the update of");
      // the finished update's memo describes the output: nothing is read or rendered again
      expect(result.report?.packageData).toEqual({ read: 0, reused: 8 });
      expect(result.report?.packagePages).toEqual({ rendered: 0, reused: 8 });
      // the memo file and its base, no journal or pending memo left
      expect((await readdir(join(cache, "builds"))).map(memoFileKind).sort()).toEqual(["base", "memo"]);
      expect((await readdir(work.path)).filter((name) => name.startsWith("site."))).toEqual([]);
      expect(await treeDigests(out)).toEqual(await cleanBuild());
      expect(existsSync(join(out, "assets", "search-index.js"))).toBe(true);
    },
  );
});
