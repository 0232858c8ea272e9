import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CraftedEntry,
  craftTar,
  dir,
  file,
  type ListedNode,
  link,
  listTree,
  run,
  type TreeSpec,
  writeTree,
} from "../../test/support/bundle-trees.js";
import { createBundle } from "./create.js";
import { extractBundle } from "./extract.js";

const spec: TreeSpec = {
  "bin/tool": file("#!/bin/sh\necho tool\n", 0o700),
  "lib/big.bin": file(Buffer.alloc(3 << 20, "library ")),
  "lib/big.so": link("big.bin"),
  "share/doc/readme.md": file("read me\n", 0o600),
  "share/empty": dir(),
  "etc/up": link("../share/doc/readme.md"),
  "ünï/日本語.txt": file("unicode\n"),
  [`${"deep/".repeat(30)}${"n".repeat(120)}`]: file("deep\n"),
};

/** What a tree looks like once bundled: modes normalised the way createBundle does it. */
function normalised(nodes: ListedNode[]): ListedNode[] {
  return nodes.map((node) => {
    if (node.type === "directory") return { ...node, mode: 0o755 };
    if (node.type === "file") return { ...node, mode: node.mode & 0o111 ? 0o755 : 0o644 };
    return node;
  });
}

async function failure(promise: Promise<unknown>): Promise<PkgError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PkgError);
  return error as PkgError;
}

describe("extractBundle", () => {
  let temp: TempDir;
  let source: string;
  beforeEach(async () => {
    temp = await tempDir("bundle-extract-");
    source = join(temp.path, "src");
    await writeTree(source, spec);
  });
  afterEach(async () => {
    await temp.remove();
  });

  for (const format of ["tar.zst", "tar.xz"] as const) {
    it(`gives back the tree that was bundled (${format})`, async () => {
      const bundle = join(temp.path, `out.${format}`);
      const created = await createBundle({ sourceDir: source, output: bundle });
      const dest = join(temp.path, "dest");
      const result = await extractBundle(bundle, dest, { expectedDigest: created.digest });
      expect(result).toEqual({
        kind: format === "tar.zst" ? "zstd" : "xz",
        digest: created.digest,
        entries: created.entries,
        links: new Map([
          ["etc/up", "../share/doc/readme.md"],
          ["lib/big.so", "big.bin"],
        ]),
      });
      expect(await listTree(dest)).toEqual(normalised(await listTree(source)));
      expect(await readdir(temp.path)).toEqual(expect.arrayContaining(["dest", "src"]));
      expect((await readdir(temp.path)).length).toBe(4); // src, the bundle, its .digest.json, dest
    });
  }

  it("extracts a plain tar made by GNU tar, into an empty directory that exists", async () => {
    const tarFile = join(temp.path, "gnu.tar");
    await run("tar", ["-C", source, "-cf", tarFile, "."]);
    const dest = join(temp.path, "dest");
    await mkdir(dest);
    const result = await extractBundle(tarFile, dest);
    expect(result.kind).toBe("tar");
    expect(await listTree(dest)).toEqual(await listTree(source));
  });

  it("refuses a digest mismatch with a data error and keeps nothing", async () => {
    const bundle = join(temp.path, "out.tar.zst");
    await createBundle({ sourceDir: source, output: bundle });
    const dest = join(temp.path, "dest");
    const error = await failure(extractBundle(bundle, dest, { expectedDigest: `sha256:${"0".repeat(64)}` }));
    expect(error.exitCode).toBe(ExitCode.Data);
    expect(error.message).toContain("digest mismatch");
    expect((await readdir(temp.path)).sort()).toEqual(["out.tar.zst", "out.tar.zst.digest.json", "src"]);
  });

  it("refuses a corrupt or foreign file with a data error and keeps nothing", async () => {
    const bundle = join(temp.path, "out.tar.zst");
    await createBundle({ sourceDir: source, output: bundle });
    const bytes = await readFile(bundle);
    const truncated = join(temp.path, "truncated.tar.zst");
    await writeFile(truncated, bytes.subarray(0, bytes.length - 5000));
    expect((await failure(extractBundle(truncated, join(temp.path, "a")))).exitCode).toBe(ExitCode.Data);

    const foreign = join(temp.path, "foreign.tar.zst");
    await writeFile(foreign, "not an archive at all");
    const error = await failure(extractBundle(foreign, join(temp.path, "b")));
    expect(error.exitCode).toBe(ExitCode.Data);
    expect(error.message).toContain("not a zstd, xz or tar archive");
    expect((await readdir(temp.path)).sort()).toEqual([
      "foreign.tar.zst",
      "out.tar.zst",
      "out.tar.zst.digest.json",
      "src",
      "truncated.tar.zst",
    ]);
  });

  it("refuses a destination that is not an empty directory", async () => {
    const bundle = join(temp.path, "out.tar.zst");
    await createBundle({ sourceDir: source, output: bundle });
    const error = await failure(extractBundle(bundle, source));
    expect(error.exitCode).toBe(ExitCode.Usage);
  });

  const escapes: [string, CraftedEntry[]][] = [
    ["a parent reference", [{ header: { name: "../evil", type: "file" }, content: "x" }]],
    ["an absolute path", [{ header: { name: "/tmp/evil", type: "file" }, content: "x" }]],
    ["a parent reference inside a path", [{ header: { name: "a/../../evil", type: "file" }, content: "x" }]],
    [
      "a write through a symlink",
      [
        { header: { name: "escape", type: "symlink", linkname: ".." } },
        { header: { name: "escape/evil", type: "file" }, content: "x" },
      ],
    ],
    [
      "a write through a nested symlink",
      [
        { header: { name: "d/", type: "directory" } },
        { header: { name: "d/up", type: "symlink", linkname: "../.." } },
        { header: { name: "d/up/evil", type: "file" }, content: "x" },
      ],
    ],
    [
      "a hard link out of the tree",
      [
        { header: { name: "ok", type: "file" }, content: "x" },
        { header: { name: "evil", type: "link", linkname: "../outside.txt" } },
      ],
    ],
    [
      "a symlink to an absolute path",
      [{ header: { name: "passwd", type: "symlink", linkname: "/etc/passwd" } }],
    ],
    [
      "a symlink that climbs out",
      [
        { header: { name: "d/", type: "directory" } },
        { header: { name: "d/up", type: "symlink", linkname: "../../outside.txt" } },
      ],
    ],
    [
      "a chain of symlinks that leads out, each inside alone",
      [
        { header: { name: "d/t", type: "symlink", linkname: "s/../../outside.txt" } },
        { header: { name: "d/s", type: "symlink", linkname: "." } },
      ],
    ],
    ["a FIFO", [{ header: { name: "pipe", type: "fifo" } }]],
    ["a device", [{ header: { name: "dev", type: "character-device", devmajor: 1, devminor: 3 } }]],
  ];
  for (const [what, entries] of escapes) {
    it(`refuses ${what} with a data error and keeps nothing`, async () => {
      await writeFile(join(temp.path, "outside.txt"), "outside");
      const tarFile = join(temp.path, "crafted.tar");
      await craftTar(tarFile, entries);
      await run("zstd", ["-q", tarFile, "-o", `${tarFile}.zst`]);
      for (const archive of [tarFile, `${tarFile}.zst`]) {
        const error = await failure(extractBundle(archive, join(temp.path, "dest")));
        expect(error.exitCode).toBe(ExitCode.Data);
      }
      expect((await readdir(temp.path)).sort()).toEqual([
        "crafted.tar",
        "crafted.tar.zst",
        "outside.txt",
        "src",
      ]);
      expect(await readFile(join(temp.path, "outside.txt"), "utf8")).toBe("outside");
      await expect(stat(join(temp.path, "evil"))).rejects.toThrow();
    });
  }

  it("names the symlink that points outside and its target", async () => {
    const tarFile = join(temp.path, "crafted.tar");
    await craftTar(tarFile, [
      { header: { name: "ok", type: "file" }, content: "x" },
      { header: { name: "bin/env", type: "symlink", linkname: "/usr/bin/env" } },
    ]);
    const error = await failure(extractBundle(tarFile, join(temp.path, "dest")));
    expect(error.message).toBe(
      'archive entry "bin/env" is a symlink to "/usr/bin/env", outside the package tree',
    );
    await craftTar(tarFile, [
      { header: { name: "a/s", type: "symlink", linkname: "." } },
      { header: { name: "a/t", type: "symlink", linkname: "s/../.." } },
    ]);
    const chain = await failure(extractBundle(tarFile, join(temp.path, "dest")));
    expect(chain.message).toBe('archive entry "a/t" is a symlink to "s/../..", outside the package tree');
    expect((await readdir(temp.path)).sort()).toEqual(["crafted.tar", "src"]);
  });

  it("keeps symlinks that stay inside (also with ..), restores modes and drops set-id bits", async () => {
    const tarFile = join(temp.path, "crafted.tar");
    await craftTar(tarFile, [
      { header: { name: "ro/", type: "directory", mode: 0o555 } },
      { header: { name: "ro/setuid", type: "file", mode: 0o4755 }, content: "#!/bin/sh\n" },
      { header: { name: "plain", type: "file", mode: 0o640 }, content: "plain" },
      { header: { name: "ro/up", type: "symlink", linkname: "../plain" } },
      { header: { name: "again", type: "link", linkname: "plain" } },
      // d/s is replaced by a file further on: d/t is judged by what is extracted in the end
      { header: { name: "d/", type: "directory", mode: 0o755 } },
      { header: { name: "d/s", type: "symlink", linkname: "." } },
      { header: { name: "d/t", type: "symlink", linkname: "s/../.." } },
      { header: { name: "d/s", type: "file", mode: 0o644 }, content: "now a file" },
    ]);
    const dest = join(temp.path, "dest");
    const result = await extractBundle(tarFile, dest);
    expect(result.links).toEqual(
      new Map([
        ["ro/up", "../plain"],
        ["d/t", "s/../.."],
      ]),
    );
    expect(await listTree(dest)).toEqual([
      { path: "again", type: "file", mode: 0o640, data: expect.any(String) },
      { path: "d", type: "directory", mode: 0o755, data: "" },
      { path: "d/s", type: "file", mode: 0o644, data: expect.any(String) },
      { path: "d/t", type: "symlink", mode: 0, data: "s/../.." },
      { path: "plain", type: "file", mode: 0o640, data: expect.any(String) },
      { path: "ro", type: "directory", mode: 0o555, data: "" },
      { path: "ro/setuid", type: "file", mode: 0o755, data: expect.any(String) },
      { path: "ro/up", type: "symlink", mode: 0, data: "../plain" },
    ]);
    expect((await stat(join(dest, "again"))).ino).toBe((await stat(join(dest, "plain"))).ino);
  });
});
