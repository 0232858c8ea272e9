import { createHash } from "node:crypto";
import { lstat, mkdir, readdir, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { PackageRoot } from "@pkg/index";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWithCli, writeCatalogProject } from "../support/catalog-project.js";
import { type SyntheticIndex, writeSyntheticIndex } from "../support/synthetic-index.js";

const digestOf = (bytes: Uint8Array | string) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
/** Text that may only ever reach the site if a file outside the index tree was read. */
const OUTSIDE = "TOP-SECRET-OUTSIDE-THE-INDEX";
const LINKED = "LINKED-DIRECTORY-OUTSIDE-THE-INDEX";
const ESCAPED = "ROOT-BESIDE-THE-INDEX";
const MiB = 1024 * 1024;

async function listTree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

function rootJson(name: string, description: string): string {
  const root: PackageRoot = {
    name,
    repository: "oci://ghcr.io/evil/pkg",
    owners: [{ github: "evil", github_id: 1 }],
    status: "active",
    deprecated_message: null,
    created: "2026-01-01",
    desc: { digest: digestOf(name), title: "evil", description, keywords: [] },
    tags: {},
  };
  return `${JSON.stringify(root, null, 2)}\n`;
}

/**
 * A synthetic index made hostile after the fact: names with `..`, a root and a README whose bytes no
 * longer match their digests, an oversized README and root, a README object that is a link to a file
 * outside the tree, a namespace directory that is a link out of the tree, a key reaching beside it.
 */
async function hostileIndex(scratch: string): Promise<SyntheticIndex> {
  const outside = join(scratch, "outside");
  await mkdir(join(outside, "linked"), { recursive: true });
  await writeFile(join(outside, "secret.md"), OUTSIDE);
  const index = join(scratch, "index-src");
  const synth = await writeSyntheticIndex(index, {
    packages: 8,
    readmeOf: (i) => (i === 3 ? `# big\n\n${"a".repeat(1.5 * MiB)}\n` : i === 5 ? OUTSIDE : undefined),
  });
  const catalogFile = join(index, "c/index.json");
  const catalog = JSON.parse(await readFile(catalogFile, "utf8")) as { packages: Record<string, string> };
  const rootOf = async (i: number) =>
    JSON.parse(await readFile(join(index, `p/${synth.packages[i]?.path}.json`), "utf8")) as PackageRoot;
  const objectFile = (i: number, digest = "") =>
    join(index, `p/${synth.packages[i]?.path}/o/sha256/${digest.slice(7)}.md`);

  // 1: root bytes changed after the catalog index was written
  await writeFile(join(index, `p/${synth.packages[1]?.path}.json`), `${JSON.stringify(await rootOf(1))} `);
  // 2: README object bytes that do not match its name
  await writeFile(objectFile(2, (await rootOf(2)).desc?.readme), "# replaced\n");
  // 4: a root above the size cap, its digest in the catalog index kept exact
  const big = rootJson(`synth.dev/${synth.packages[4]?.path}`, "b".repeat(5 * MiB));
  await writeFile(join(index, `p/${synth.packages[4]?.path}.json`), big);
  catalog.packages[synth.packages[4]?.path ?? ""] = digestOf(big);
  // 5: the README object replaced by a link to a file outside the tree with the very same bytes
  const linkedReadme = objectFile(5, (await rootOf(5)).desc?.readme);
  await rm(linkedReadme);
  await symlink(join(outside, "secret.md"), linkedReadme);
  // a namespace directory linking out of the tree, holding a root whose digest is exact
  const linkedRoot = rootJson("synth.dev/linked-ns/pkg", LINKED);
  await writeFile(join(outside, "linked", "pkg.json"), linkedRoot);
  await symlink(join(outside, "linked"), join(index, "p", "linked-ns"));
  catalog.packages["linked-ns/pkg"] = digestOf(linkedRoot);
  // keys and names with `..`, one reaching a root placed beside the index
  const escaping = rootJson("synth.dev/../../escape", ESCAPED);
  await writeFile(join(scratch, "escape.json"), escaping);
  catalog.packages["../../escape"] = digestOf(escaping);
  catalog.packages["../escape"] = digestOf(escaping);
  const dotted = rootJson("synth.dev/dots/..", ESCAPED);
  await mkdir(join(index, "p", "dots"), { recursive: true });
  await writeFile(join(index, "p", "dots", "...json"), dotted);
  catalog.packages["dots/.."] = digestOf(dotted);
  const renamed = rootJson("synth.dev/../../../../renamed", ESCAPED);
  await mkdir(join(index, "p", "evil"), { recursive: true });
  await writeFile(join(index, "p", "evil", "name.json"), renamed);
  catalog.packages["evil/name"] = digestOf(renamed);
  await writeFile(catalogFile, `${JSON.stringify(catalog, null, 2)}\n`);
  return synth;
}

describe("hostile index data", () => {
  let scratch: TempDir;
  let synth: SyntheticIndex;

  beforeAll(async () => {
    scratch = await tempDir("hostile-index-");
    synth = await hostileIndex(scratch.path);
  });
  afterAll(async () => {
    await scratch?.remove();
  });

  it("is refused or skipped with a warning, and never lands a file outside the output directory", async () => {
    const config = await writeCatalogProject(join(scratch.path, "project"), {
      index: join(scratch.path, "index-src"),
    });
    const out = join(scratch.path, "site");
    const before = (await listTree(scratch.path)).filter((p) => p !== "site" && !p.startsWith(`site${sep}`));
    const built = await buildWithCli(config, out);
    expect([0, 65], built.stderr).toContain(built.code);
    expect(built.stderr.trim(), "a warning or an error names what was refused").not.toBe("");

    const after = (await listTree(scratch.path)).filter((p) => p !== "site" && !p.startsWith(`site${sep}`));
    expect(after).toEqual(before);
    const realOut = await realpath(out).catch(() => out);
    for (const path of await listTree(out)) {
      const full = join(out, path);
      expect((await lstat(full)).isSymbolicLink(), path).toBe(false);
      expect((await realpath(full)).startsWith(realOut + sep), path).toBe(true);
      if ((await lstat(full)).isFile()) {
        const text = await readFile(full, "utf8");
        for (const marker of [OUTSIDE, LINKED, ESCAPED])
          expect(text.includes(marker), `${path} has ${marker}`).toBe(false);
      }
    }
    if (built.code === 0) {
      // the untouched packages still make it
      for (const i of [0, 6, 7]) {
        const pkg = synth.packages[i];
        expect(await readFile(join(out, pkg?.path ?? "", "index.html"), "utf8")).toContain(pkg?.title);
      }
      // each hostile item is named in a warning line: keys, the packages skipped, the READMEs left out
      const warnings = built.stderr.split("\n").filter((line) => /warn/i.test(line));
      const hostile = ["../../escape", "../escape", "dots/..", "evil/name", "linked-ns/pkg"];
      for (const i of [1, 2, 3, 4, 5]) hostile.push(synth.packages[i]?.path ?? "");
      for (const item of hostile)
        expect(
          warnings.some((line) => line.includes(item)),
          item,
        ).toBe(true);
      for (const i of [1, 4]) expect(await listTree(join(out, synth.packages[i]?.path ?? ""))).toEqual([]);
    }
  });
});
