import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogBin, memoFileKind } from "../support/catalog-project.js";
import { bundleClient } from "../support/client-bundle.js";
import { filesUnder, treeDigests } from "../support/file-tree.js";
import { publishRoot, readJson } from "../support/source-fixtures.js";
import { type SyntheticIndex, writeSyntheticIndex } from "../support/synthetic-index.js";

interface Report {
  packages: number;
  packagePages: { rendered: number; reused: number };
  packageData: { read: number; reused: number };
  fileChanges: { written: number; kept: number; removed: number };
}

const PACKAGES = 12;
let work: TempDir;
let index: SyntheticIndex;
let config: string;
let out: string;
let cache: string;

/** `pkg-catalog build CONFIG --out OUT --format json` with the memo cache in `cache`. */
async function build(outDir = out, cacheDir = cache, configFile = config) {
  const result = await runCli(
    catalogBin,
    ["build", configFile, "--out", outDir, "--cache-dir", cacheDir, "--format", "json"],
    { cwd: dirname(configFile) },
  );
  return { ...result, report: result.code === 0 ? (JSON.parse(result.stdout) as Report) : undefined };
}

async function writeConfig(extra: Record<string, unknown> = {}): Promise<void> {
  const body = { sources: [{ path: "./index", root: true }], brand: { title: "Incremental" }, ...extra };
  await writeFile(config, `${JSON.stringify(body, null, 2)}\n`);
}

/** Changes one package's description as a publisher would: a new root, its digest in c/index.json. */
async function editPackage(i: number, description: string): Promise<string> {
  const path = index.packages[i]?.path as string;
  const root = await readJson(join(index.dir, "p", `${path}.json`));
  root.desc = { ...(root.desc as object), description };
  await publishRoot(index.dir, path, `${JSON.stringify(root, null, 2)}\n`);
  return path;
}

/** The tree of a clean build of the current input, for comparison. */
async function cleanBuild(): Promise<Record<string, string>> {
  const clean = join(work.path, "clean");
  await rm(clean, { recursive: true, force: true });
  const result = await build(clean, join(work.path, "clean-cache"));
  expect(result.code, result.stderr).toBe(0);
  return treeDigests(clean);
}

beforeAll(async () => {
  bundleClient();
  work = await tempDir("catalog-incremental-");
  index = await writeSyntheticIndex(join(work.path, "project", "index"), {
    packages: PACKAGES,
    readmeBytes: 800,
  });
  config = join(work.path, "project", "catalog.config.json");
  out = join(work.path, "site");
  cache = join(work.path, "cache");
  await writeConfig();
});

afterAll(async () => {
  await work?.remove();
});

describe("pkg-catalog build onto its previous output", () => {
  it("renders every page the first time, then nothing when nothing changed", async () => {
    const first = await build();
    expect(first.code, first.stderr).toBe(0);
    expect(first.report?.packagePages).toEqual({ rendered: PACKAGES, reused: 0 });
    expect(first.report?.packageData).toEqual({ read: PACKAGES, reused: 0 });
    // the memo lives in the cache directory, never in the deployed site
    expect((await readdir(join(cache, "builds"))).map(memoFileKind).sort()).toEqual(["base", "memo"]);
    expect(
      (await filesUnder(out)).some((file) => file.includes("pkg-catalog") || file.endsWith(".memo")),
    ).toBe(false);

    const before = await treeDigests(out);
    const again = await build();
    expect(again.code, again.stderr).toBe(0);
    expect(again.report?.packagePages).toEqual({ rendered: 0, reused: PACKAGES });
    expect(again.report?.packageData).toEqual({ read: 0, reused: PACKAGES });
    expect(again.report?.fileChanges).toMatchObject({ written: 0, removed: 0 });
    expect(await treeDigests(out)).toEqual(before);
  });

  it("reads and renders only the changed package, and ends byte-identical to a clean build", async () => {
    const changed = await editPackage(4, "A description that changed.");
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    expect(result.report?.packageData).toEqual({ read: 1, reused: PACKAGES - 1 });
    expect(result.report?.packagePages).toEqual({ rendered: 1, reused: PACKAGES - 1 });
    expect(await readFile(join(out, changed, "index.html"), "utf8")).toContain("A description that changed.");
    expect(await treeDigests(out)).toEqual(await cleanBuild());
    expect((await readdir(work.path)).sort()).toEqual(["cache", "clean", "clean-cache", "project", "site"]);
  });

  it("renders every page again when the chrome changes (the brand title), reading no package", async () => {
    await writeConfig({ brand: { title: "Retitled" } });
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    expect(result.report?.packagePages).toEqual({ rendered: PACKAGES, reused: 0 });
    expect(result.report?.packageData).toEqual({ read: 0, reused: PACKAGES });
    expect(await readFile(join(out, index.packages[0]?.path ?? "", "index.html"), "utf8")).toContain(
      "Retitled",
    );
    expect(await treeDigests(out)).toEqual(await cleanBuild());
  });

  it("never reuses a previous file that was changed or removed since", async () => {
    const page = join(out, index.packages[1]?.path ?? "", "index.html");
    await writeFile(page, "<p>edited by hand</p>\n");
    const readme = (await filesUnder(join(out, "index/synth.dev"))).find(
      (file) => file.startsWith(`p/${index.packages[2]?.path}/`) && file.endsWith(".md"),
    );
    expect(readme).toBeDefined();
    // the root copy of one package's README goes, and the index copy of another's root is replaced
    await rm(join(out, readme as string));
    const root = join(out, "index/synth.dev/p", `${index.packages[3]?.path}.json`);
    await writeFile(`${root}.new`, await readFile(root));
    await rename(`${root}.new`, root);
    // and the root copy of a third one's root is replaced by the same bytes (a new inode; the index
    // copy, unchanged, then has one link)
    const copy = join(out, "p", `${index.packages[4]?.path}.json`);
    await writeFile(`${copy}.new`, await readFile(copy));
    await rename(`${copy}.new`, copy);
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    // the edited page is rendered again; the packages missing a file are read again (their pages kept)
    expect(result.report?.packagePages).toEqual({ rendered: 1, reused: PACKAGES - 1 });
    expect(result.report?.packageData).toEqual({ read: 3, reused: PACKAGES - 3 });
    expect(await treeDigests(out)).toEqual(await cleanBuild());
  });

  it("leaves the previous output as it was when a build onto it fails, then goes on from it", async () => {
    const before = await treeDigests(out);
    await editPackage(6, "Never published.");
    // docs/guide.md renders to docs/guide/index.html, which docs/guide/index.html then claims again
    const docs = join(work.path, "project", "docs");
    await mkdir(join(docs, "guide"), { recursive: true });
    await writeFile(join(docs, "guide.md"), "# Guide\n");
    await writeFile(join(docs, "guide", "index.html"), "<p>clash</p>\n");
    await writeConfig({ brand: { title: "Retitled" }, docs: "./docs" });
    const failed = await build();
    expect(failed.code).toBe(65);
    expect(failed.stderr).toMatch(/route collision: \/docs\/guide\/index.html/);
    expect(await treeDigests(out)).toEqual(before);
    expect((await readdir(work.path)).sort()).toEqual(["cache", "clean", "clean-cache", "project", "site"]);

    await writeConfig({ brand: { title: "Retitled" } });
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    expect(result.report?.packageData).toEqual({ read: 1, reused: PACKAGES - 1 });
    expect(result.report?.packagePages).toEqual({ rendered: 1, reused: PACKAGES - 1 });
    expect(await treeDigests(out)).toEqual(await cleanBuild());
  });

  it("removes what is no longer produced (a package gone from the index)", async () => {
    const catalogPath = join(index.dir, "c", "index.json");
    const catalog = await readJson(catalogPath);
    const gone = index.packages[7]?.path as string;
    delete (catalog.packages as Record<string, string>)[gone];
    await writeFile(catalogPath, JSON.stringify(catalog, null, 2));
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    expect(result.report?.packages).toBe(PACKAGES - 1);
    expect(result.report?.packagePages).toEqual({ rendered: 0, reused: PACKAGES - 1 });
    expect(result.report?.fileChanges.removed).toBeGreaterThan(2);
    expect((await filesUnder(out)).some((file) => file.includes(gone))).toBe(false);
    expect(await treeDigests(out)).toEqual(await cleanBuild());
  });

  it("builds anew an output whose files all changed since (restored from a copy)", async () => {
    const copy = join(work.path, "copy");
    await cp(out, copy, { recursive: true });
    await rm(out, { recursive: true });
    await rename(copy, out);
    const result = await build();
    expect(result.code, result.stderr).toBe(0);
    expect(result.report?.packageData.reused).toBe(0);
    expect(result.report?.packagePages.reused).toBe(0);
    expect(await treeDigests(out)).toEqual(await cleanBuild());
    expect((await readdir(work.path)).sort()).toEqual(["cache", "clean", "clean-cache", "project", "site"]);
  });
});
