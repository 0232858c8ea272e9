import { createHash, randomBytes } from "node:crypto";
import { appendFileSync, rmSync, truncateSync } from "node:fs";
import { link as hardLink, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  decompressWithTool,
  dir,
  file,
  link,
  run,
  type TreeSpec,
  tarHeaders,
  writeTree,
} from "../../test/support/bundle-trees.js";
import { createBundle } from "./create.js";

const longPath = `${"deep/".repeat(40)}${"n".repeat(120)}.txt`;
// 3 MiB, not a multiple of 512, half incompressible: it takes the streamed path for large files
const big = Buffer.concat([randomBytes(3 << 19), Buffer.alloc((3 << 19) + 77, "binary ")]);

const spec: TreeSpec = {
  "bin/tool": file("#!/bin/sh\necho tool\n", 0o700),
  "bin/helper": file("helper", 0o751),
  "lib/libx.so.1.0": file(big),
  "lib/libx.so": link("libx.so.1.0"),
  "share/doc/readme.md": file("read me\n", 0o600),
  "share/empty": dir(),
  "etc/up": link("../share/doc/readme.md"),
  "links/long-target": link(`../${"t".repeat(150)}`),
  "ünï/日本語.txt": file("unicode\n"),
  // UTF-8 puts U+FF57 before U+1F600; UTF-16 code units would not
  "ünï/😀.txt": file("emoji\n"),
  "ünï/ｗ.txt": file("wide\n"),
  [longPath]: file("deep\n"),
  "a-b": file("dash"),
  "a/x": file(""),
  a0: file("zero"),
};

/** Every archive name the spec gives, in byte order: directories with a trailing slash. */
function expectedNames(tree: TreeSpec): string[] {
  const names = new Set<string>();
  for (const [path, node] of Object.entries(tree)) {
    const parts = path.split("/");
    for (let depth = 1; depth < parts.length; depth++) names.add(`${parts.slice(0, depth).join("/")}/`);
    names.add(node.kind === "dir" ? `${path}/` : path);
  }
  return [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

async function failure(promise: Promise<unknown>): Promise<PkgError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PkgError);
  return error as PkgError;
}

describe("createBundle", () => {
  let temp: TempDir;
  let source: string;
  beforeEach(async () => {
    temp = await tempDir("bundle-create-");
    source = join(temp.path, "src");
    await writeTree(source, spec);
  });
  afterEach(async () => {
    await temp.remove();
  });

  for (const format of ["tar.zst", "tar.xz"] as const) {
    it(`gives the same digest for the same tree, whatever order, times and permissions (${format})`, async () => {
      const first = await createBundle({ sourceDir: source, output: join(temp.path, `1.${format}`) });
      const again = await createBundle({ sourceDir: source, output: join(temp.path, `2.${format}`) });
      expect(again).toEqual(first);

      // the same content written in reverse order, with other modes and timestamps
      const copy = join(temp.path, "copy");
      const reordered: TreeSpec = {
        ...spec,
        "bin/tool": file("#!/bin/sh\necho tool\n", 0o755),
        "bin/helper": file("helper", 0o100),
        "share/doc/readme.md": file("read me\n", 0o640),
        "share/empty": dir(0o700),
      };
      await writeTree(copy, reordered, Object.keys(reordered).reverse());
      await utimes(join(copy, "bin/tool"), 12345, 67890);
      await utimes(join(copy, "share"), 1, 1);
      const other = await createBundle({ sourceDir: copy, output: join(temp.path, `3.${format}`) });
      expect(other.digest).toBe(first.digest);

      const bytes = await readFile(join(temp.path, `1.${format}`));
      expect(first.digest).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
      expect(first.size).toBe(bytes.length);
      expect(first.mediaType).toBe(
        `application/vnd.oci.image.layer.v1.tar+${format === "tar.zst" ? "zstd" : "xz"}`,
      );
    });
  }

  it("writes a standard tar that zstd, xz and GNU tar read: sorted, normalised, with PAX where needed", async () => {
    const names = expectedNames(spec);
    for (const format of ["tar.zst", "tar.xz"] as const) {
      const bundle = join(temp.path, `out.${format}`);
      const result = await createBundle({ sourceDir: source, output: bundle, mtime: 1700000000 });
      await run(format === "tar.zst" ? "zstd" : "xz", ["-tq", bundle]);
      const tar = await decompressWithTool(bundle);
      expect(result.uncompressedSize).toBe(tar.length);
      expect(result.entries).toBe(names.length);

      const tarFile = join(temp.path, `out-${format}.tar`);
      await writeFile(tarFile, tar);
      const listed = (await run("tar", ["--quoting-style=literal", "-tf", tarFile])).toString("utf8");
      expect(listed.trimEnd().split("\n")).toEqual(names);

      const verbose = (await run("tar", ["--numeric-owner", "--quoting-style=literal", "-tvf", tarFile]))
        .toString("utf8")
        .trimEnd()
        .split("\n");
      expect(verbose.find((line) => line.endsWith(" bin/tool"))).toMatch(/^-rwxr-xr-x 0\/0 /);
      expect(verbose.find((line) => line.endsWith(" bin/helper"))).toMatch(/^-rwxr-xr-x 0\/0 /);
      expect(verbose.find((line) => line.endsWith(" share/doc/readme.md"))).toMatch(/^-rw-r--r-- 0\/0 /);
      expect(verbose.find((line) => line.endsWith(" share/empty/"))).toMatch(/^drwxr-xr-x 0\/0 /);
      expect(verbose.find((line) => line.includes(" etc/up -> "))).toMatch(
        /-> \.\.\/share\/doc\/readme\.md$/,
      );
      expect(verbose.find((line) => line.includes(" links/long-target -> "))).toContain(
        `-> ../${"t".repeat(150)}`,
      );

      const headers = await tarHeaders(tar);
      expect(headers.map((header) => header.name)).toEqual(names);
      for (const header of headers) {
        expect(header).toMatchObject({ uid: 0, gid: 0, uname: "", gname: "" });
        expect(header.mtime.getTime()).toBe(1700000000 * 1000);
      }
      expect(headers.find((header) => header.name === "etc/up")).toMatchObject({
        type: "symlink",
        linkname: "../share/doc/readme.md",
      });
      expect(headers.find((header) => header.name === "lib/libx.so.1.0")?.size).toBe(big.length);
    }
  });

  it("gives zstd output independent of the thread count, and reports progress up to the tar size", async () => {
    const seen: number[] = [];
    const one = await createBundle({ sourceDir: source, output: join(temp.path, "1.tar.zst"), threads: 1 });
    const two = await createBundle({
      sourceDir: source,
      output: join(temp.path, "2.tar.zst"),
      threads: 2,
      onProgress: (bytes) => seen.push(bytes),
    });
    expect(two.digest).toBe(one.digest);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(two.uncompressedSize);
    const xz2 = await createBundle({ sourceDir: source, output: join(temp.path, "2.tar.xz"), threads: 2 });
    const xz3 = await createBundle({ sourceDir: source, output: join(temp.path, "3.tar.xz"), threads: 3 });
    expect(xz3.digest).toBe(xz2.digest);
    // one thread selects liblzma's single-threaded encoder: other bytes, the same tar inside
    await createBundle({ sourceDir: source, output: join(temp.path, "1.tar.xz"), threads: 1 });
    const tar = await decompressWithTool(join(temp.path, "1.tar.xz"));
    expect(tar.equals(await decompressWithTool(join(temp.path, "2.tar.xz")))).toBe(true);
  });

  it("leaves a bundle written inside its own source tree out of it", async () => {
    const outside = await createBundle({ sourceDir: source, output: join(temp.path, "out.tar.zst") });
    const inside = join(source, "out.tar.zst");
    const first = await createBundle({ sourceDir: source, output: inside });
    const second = await createBundle({ sourceDir: `${source}/./`, output: inside });
    expect(first.digest).toBe(outside.digest);
    expect(second.digest).toBe(outside.digest);
    expect((await readdir(source)).filter((name) => name.includes("out.tar.zst"))).toEqual([
      "out.tar.zst",
      "out.tar.zst.digest.json",
    ]);
  });

  it("stores hard links as regular files", async () => {
    await hardLink(join(source, "share/doc/readme.md"), join(source, "share/doc/again.md"));
    const bundle = join(temp.path, "out.tar.zst");
    await createBundle({ sourceDir: source, output: bundle });
    const headers = await tarHeaders(await decompressWithTool(bundle));
    expect(headers.find((header) => header.name === "share/doc/again.md")).toMatchObject({
      type: "file",
      size: 8,
    });
  });

  it("refuses a FIFO with a data error naming it, and leaves no output", async () => {
    await run("mkfifo", [join(source, "share/pipe")]);
    const error = await failure(createBundle({ sourceDir: source, output: join(temp.path, "out.tar.zst") }));
    expect(error.exitCode).toBe(ExitCode.Data);
    expect(error.message).toContain(join(source, "share/pipe"));
    expect(await readdir(temp.path)).toEqual(["src"]);
  });

  const escapes: [string, TreeSpec, string, string][] = [
    ["an absolute target", { "etc/env": link("/usr/bin/env") }, "etc/env", "/usr/bin/env"],
    [
      "a target that climbs out",
      { "etc/passwd": link("../../etc/passwd") },
      "etc/passwd",
      "../../etc/passwd",
    ],
    [
      "a target that climbs out from deep down",
      { "a/b/c/up": link("../../../..") },
      "a/b/c/up",
      "../../../..",
    ],
    // each alone looks inside; d/s is d itself, so d/s/../.. is the parent of the tree
    ["a chain of links", { "d/s": link("."), "d/t": link("s/../..") }, "d/t", "s/../.."],
  ];
  for (const [what, links, name, target] of escapes) {
    it(`refuses a symlink with ${what}, naming it and its target, and leaves no output`, async () => {
      await writeTree(source, links);
      const output = join(temp.path, "out.tar.zst");
      const error = await failure(createBundle({ sourceDir: source, output }));
      expect(error.exitCode).toBe(ExitCode.Data);
      expect(error.message).toBe(
        `${join(source, name)}: symlink to ${target} points outside the package tree; a package holds only links that stay inside it`,
      );
      expect(await readdir(temp.path)).toEqual(["src"]);
    });
  }

  it("keeps symlinks that climb with .. and stay inside, also through other links", async () => {
    await writeTree(source, {
      "a/b/c/top": link("../../../share/doc/readme.md"),
      "a/b/zigzag": link("../../a/../share/empty"),
      "d/s": link("."),
      "d/t": link("s/../share"),
      "loop/x": link("y"),
      "loop/y": link("x"),
    });
    const output = join(temp.path, "out.tar.zst");
    await createBundle({ sourceDir: source, output });
    const headers = await tarHeaders(await decompressWithTool(output));
    expect(headers.find((header) => header.name === "a/b/c/top")?.linkname).toBe(
      "../../../share/doc/readme.md",
    );
    expect(headers.find((header) => header.name === "d/t")?.linkname).toBe("s/../share");
  });

  it("refuses a bad extension or level with a usage error before writing anything", async () => {
    const extension = await failure(createBundle({ sourceDir: source, output: join(temp.path, "out.tgz") }));
    expect(extension.exitCode).toBe(ExitCode.Usage);
    expect(extension.message).toContain(".tar.zst or .tar.xz");
    const zstd = await failure(
      createBundle({ sourceDir: source, output: join(temp.path, "o.tar.zst"), level: 20 }),
    );
    expect(zstd.exitCode).toBe(ExitCode.Usage);
    const xz = await failure(
      createBundle({ sourceDir: source, output: join(temp.path, "o.tar.xz"), level: 10 }),
    );
    expect(xz.exitCode).toBe(ExitCode.Usage);
    expect(await readdir(temp.path)).toEqual(["src"]);
  });

  it("leaves no output when a source file changes or vanishes while it is read", async () => {
    const outputs = join(temp.path, "out");
    await writeTree(outputs, { keep: file("") });
    // the first progress report comes once the large file is listed and before it is read
    const bigFile = join(source, "lib/libx.so.1.0");
    const once = (change: () => void) => {
      let done = false;
      return () => {
        if (!done) change();
        done = true;
      };
    };
    const shrink = await failure(
      createBundle({
        sourceDir: source,
        output: join(outputs, "a.tar.zst"),
        onProgress: once(() => truncateSync(bigFile, 1000)),
      }),
    );
    expect(shrink.exitCode).toBe(ExitCode.IoError);
    expect(shrink.message).toContain("libx.so.1.0");

    await writeFile(bigFile, big);
    const grow = await failure(
      createBundle({
        sourceDir: source,
        output: join(outputs, "b.tar.xz"),
        onProgress: once(() => appendFileSync(bigFile, "more")),
      }),
    );
    expect(grow.exitCode).toBe(ExitCode.IoError);

    await writeFile(bigFile, big);
    const vanished = await failure(
      createBundle({
        sourceDir: source,
        output: join(outputs, "c.tar.zst"),
        onProgress: once(() => rmSync(bigFile)),
      }),
    );
    expect(vanished.exitCode).toBe(ExitCode.Data);
    expect(vanished.message).toContain("libx.so.1.0");
    expect(await readdir(outputs)).toEqual(["keep"]);
  });

  it("leaves no temporary file when the output cannot be renamed or created", async () => {
    const occupied = join(temp.path, "taken.tar.zst");
    await writeTree(occupied, { inside: file("x") });
    const rename = await failure(createBundle({ sourceDir: source, output: occupied }));
    expect(rename.message).toContain(occupied);
    expect((await readdir(temp.path)).sort()).toEqual(["src", "taken.tar.zst"]);
    expect(await readdir(occupied)).toEqual(["inside"]);

    await failure(createBundle({ sourceDir: source, output: join(temp.path, "missing", "out.tar.zst") }));
    expect((await readdir(temp.path)).sort()).toEqual(["src", "taken.tar.zst"]);
    await expect(stat(join(temp.path, "missing"))).rejects.toThrow();
  });

  it("refuses a source that is not a directory", async () => {
    const missing = await failure(
      createBundle({ sourceDir: join(temp.path, "nope"), output: join(temp.path, "o.tar.zst") }),
    );
    expect(missing.exitCode).toBe(ExitCode.Data);
    const notDir = await failure(
      createBundle({ sourceDir: join(source, "a0"), output: join(temp.path, "o.tar.zst") }),
    );
    expect(notDir.exitCode).toBe(ExitCode.Data);
  });
});
