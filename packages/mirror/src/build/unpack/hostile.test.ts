import { lstat, mkdir, readdir, readFile, readlink, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isPkgError } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type TarEntrySpec,
  writeTar,
  writeZip,
  type ZipEntrySpec,
} from "../../../test/support/crafted-archives.js";
import { unpackAsset } from "./unpack.js";

// Layout: <tmp>/work/{asset, secret, out}; <tmp>/outer is a directory two levels above `out`'s content.
let dir: TempDir;
let work: string;
let asset: string;
const SECRET = "do not touch\n";

beforeEach(async () => {
  dir = await tempDir("hostile-");
  work = join(dir.path, "work");
  asset = join(work, "asset");
  await mkdir(work);
  await mkdir(join(dir.path, "outer"));
  await writeFile(join(work, "secret"), SECRET);
});
afterEach(async () => {
  await dir.remove();
});

/** Unpacks `asset` into work/out, expects a 65 naming the asset, and that nothing at all was written outside. */
async function expectRefused(pattern: RegExp, strip = 0): Promise<void> {
  const error = await unpackAsset(asset, join(work, "out"), {
    assetType: { type: "archive", strip_components: strip },
    platform: "linux/amd64",
  }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isPkgError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  expect(error.exitCode).toBe(65);
  expect(error.message).toMatch(/^asset: /);
  expect(error.message).toMatch(pattern);
  expect((await readdir(work)).sort()).toEqual(["asset", "secret"]);
  expect((await readdir(dir.path)).sort()).toEqual(["outer", "work"]);
  expect(await readdir(join(dir.path, "outer"))).toEqual([]);
  const secret = await stat(join(work, "secret"));
  expect(secret.nlink).toBe(1);
  expect(await readFile(join(work, "secret"), "utf8")).toBe(SECRET);
}

describe("hostile tar archives", () => {
  const cases: Array<[string, TarEntrySpec[], RegExp]> = [
    ["a .. component", [{ name: "../evil", body: "x" }], /"\.\.\/evil" climbs out with \.\./],
    ["a .. in the middle", [{ name: "a/../../evil", body: "x" }], /climbs out with \.\./],
    ["an absolute path", [{ name: "/tmp/evil", body: "x" }], /"\/tmp\/evil" has an absolute path/],
    [
      "a symlink out, then a write through it",
      [
        { name: "up", type: "symlink", linkname: "../../outer" },
        { name: "up/evil", body: "x" },
      ],
      /"up" is a symlink that points outside the destination/,
    ],
    [
      "an absolute symlink",
      [{ name: "passwd", type: "symlink", linkname: "/etc/passwd" }],
      /points to an absolute path/,
    ],
    [
      "a symlink that escapes through another symlink",
      [
        { name: "here", type: "symlink", linkname: "." },
        { name: "out", type: "symlink", linkname: "here/../secret" },
      ],
      /"out" is a symlink that points outside/,
    ],
    [
      "a symlink made to escape by a later one",
      [
        { name: "later", type: "symlink", linkname: "hop/../secret" },
        { name: "hop", type: "symlink", linkname: "." },
      ],
      /"later" is a symlink that points outside/,
    ],
    [
      "a write through an inside symlink",
      [
        { name: "real", type: "directory" },
        { name: "alias", type: "symlink", linkname: "real" },
        { name: "alias/file", body: "x" },
      ],
      /"alias\/file" passes through the symlink alias/,
    ],
    [
      "a hard link out",
      [{ name: "hl", type: "link", linkname: "../secret" }],
      /^asset: hard link hl -> \.\.\/secret points outside the archive$/,
    ],
    [
      "a hard link out from below",
      [{ name: "a/hl", type: "link", linkname: "a/../../secret" }],
      /^asset: hard link a\/hl -> a\/\.\.\/\.\.\/secret points outside the archive$/,
    ],
    [
      "an absolute hard link",
      [{ name: "evil", type: "link", linkname: "/etc/passwd" }],
      /^asset: hard link evil -> \/etc\/passwd points outside the archive$/,
    ],
    [
      "a hard link out with an odd name",
      [{ name: "odd name", type: "link", linkname: "/etc/\npasswd" }],
      /^asset: hard link "odd name" -> "\/etc\/\\npasswd" points outside the archive$/,
    ],
    [
      "a hard link to a file not yet extracted",
      [
        { name: "hl", type: "link", linkname: "later" },
        { name: "later", body: "x" },
      ],
      /hard link to later, not an earlier file/,
    ],
    ["a character device", [{ name: "null", type: "character-device" }], /is a character-device/],
    ["a FIFO", [{ name: "pipe", type: "fifo" }], /is a fifo/],
  ];

  it.each(cases)("refuses %s", async (_label, entries, message) => {
    await writeTar(asset, entries);
    await expectRefused(message);
  });

  it("refuses a hard link whose target strip_components drops", async () => {
    await writeTar(asset, [
      { name: "top", body: "x" },
      { name: "dir/hl", type: "link", linkname: "top" },
    ]);
    await expectRefused(/hard link to "top", which strip_components drops/, 1);
  });

  it("keeps symlinks and hard links that stay inside", async () => {
    await writeTar(asset, [
      { name: "t/lib/real.so", body: "lib", mode: 0o755 },
      { name: "t/bin/tool", body: "tool", mode: 0o750 },
      { name: "t/lib/link.so", type: "symlink", linkname: "real.so" },
      { name: "t/bin/up", type: "symlink", linkname: "../lib/real.so" },
      { name: "t/bin/hard", type: "link", linkname: "t/bin/tool" },
    ]);
    const out = join(work, "out");
    await unpackAsset(asset, out, {
      assetType: { type: "archive", strip_components: 1 },
      platform: "linux/amd64",
    });
    expect(await readlink(join(out, "bin", "up"))).toBe("../lib/real.so");
    expect(await readFile(join(out, "bin", "up"), "utf8")).toBe("lib");
    expect((await stat(join(out, "bin", "hard"))).ino).toBe((await stat(join(out, "bin", "tool"))).ino);
    expect((await stat(join(out, "bin", "tool"))).mode & 0o777).toBe(0o750);
  });
});

describe("hostile zip archives", () => {
  const S_IFLNK = 0o120000;
  const cases: Array<[string, ZipEntrySpec[], RegExp]> = [
    ["zip slip", [{ name: "../evil", body: "x" }], /"\.\.\/evil" climbs out with \.\./],
    ["zip slip with backslashes", [{ name: "..\\..\\outer\\evil", body: "x" }], /climbs out with \.\./],
    ["an absolute path", [{ name: "/tmp/evil", body: "x" }], /has an absolute path/],
    [
      "a symlink out, then a write through it",
      [
        { name: "up", body: "../../outer", unixMode: S_IFLNK | 0o777 },
        { name: "up/evil", body: "x" },
      ],
      /"up" is a symlink that points outside the destination/,
    ],
    ["a character device", [{ name: "tty", unixMode: 0o020644 }], /zip entry "tty" is a character-device/],
  ];

  it.each(cases)("refuses %s", async (_label, entries, message) => {
    await writeZip(asset, entries);
    await expectRefused(message);
  });

  it("keeps unix modes and inside symlinks from the external attributes", async () => {
    await writeZip(asset, [
      { name: "bin/", unixMode: 0o040755 },
      { name: "bin/tool", body: "#!/bin/sh\n", unixMode: 0o100755 },
      { name: "bin/alias", body: "tool", unixMode: S_IFLNK | 0o777 },
      { name: "readme", body: "hi" },
    ]);
    const out = join(work, "out");
    await unpackAsset(asset, out, {
      assetType: { type: "archive", strip_components: 0 },
      platform: "linux/amd64",
    });
    expect((await stat(join(out, "bin", "tool"))).mode & 0o777).toBe(0o755);
    expect((await stat(join(out, "readme"))).mode & 0o777).toBe(0o644);
    expect((await lstat(join(out, "bin", "alias"))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(out, "bin", "alias"))).toBe("tool");
  });
});
