import { chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isPkgError } from "@pkg/common";
import { runCommand, type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { unpackAsset } from "./unpack.js";

let dir: TempDir;
const sh = (script: string) => runCommand("sh", ["-c", script], { cwd: dir.path });
const SCRIPT = "#!/bin/sh\necho hello from tool\n";

/** tool-1.0/{bin/tool (0755), bin/alias -> tool, share/doc.txt (0644)} under `src/`. */
async function makeTree(): Promise<void> {
  const top = join(dir.path, "src", "tool-1.0");
  await mkdir(join(top, "bin"), { recursive: true });
  await mkdir(join(top, "share"));
  await writeFile(join(top, "bin", "tool"), SCRIPT);
  await chmod(join(top, "bin", "tool"), 0o755);
  await writeFile(join(top, "share", "doc.txt"), "docs\n");
  await chmod(join(top, "share", "doc.txt"), 0o644);
  await symlink("tool", join(top, "bin", "alias"));
}

async function expectTree(root: string): Promise<void> {
  expect((await readdir(root)).sort()).toEqual(["bin", "share"]);
  expect(await readFile(join(root, "bin", "tool"), "utf8")).toBe(SCRIPT);
  expect((await stat(join(root, "bin", "tool"))).mode & 0o777).toBe(0o755);
  expect((await stat(join(root, "share", "doc.txt"))).mode & 0o777).toBe(0o644);
  expect(await readlink(join(root, "bin", "alias"))).toBe("tool");
}

async function failure(work: Promise<unknown>): Promise<{ exitCode: number; message: string }> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isPkgError(error)) throw new Error(`expected a PkgError, got ${String(error)}`);
  return { exitCode: error.exitCode, message: error.message };
}

beforeEach(async () => {
  dir = await tempDir("unpack-");
  await makeTree();
});
afterEach(async () => {
  await dir.remove();
});

const archive = (strip: number) => ({ type: "archive" as const, strip_components: strip });

describe("unpackAsset: archives made by real tools", () => {
  it.each([
    ["tar.gz", "tar -czf asset -C src tool-1.0", "tar", "gzip"],
    ["tar.xz", "tar -cJf asset -C src tool-1.0", "tar", "xz"],
    ["tar.zst", "tar --zstd -cf asset -C src tool-1.0", "tar", "zstd"],
    ["tar.bz2", "tar -cjf asset -C src tool-1.0", "tar", "bzip2"],
    ["tar", "tar -cf asset -C src tool-1.0", "tar", undefined],
    ["v7 tar", "tar --format=v7 -cf asset -C src tool-1.0", "tar", undefined],
    ["zip", "cd src && zip -qry ../asset.zip tool-1.0 && mv ../asset.zip ../asset", "zip", undefined],
  ])("unpacks a %s, stripping the top directory", async (_label, make, kind, compression) => {
    await sh(make);
    const dest = join(dir.path, "out");
    const result = await unpackAsset(join(dir.path, "asset"), dest, {
      assetType: archive(1),
      platform: "linux/amd64",
    });
    await expectTree(dest);
    expect(result.format.kind).toBe(kind);
    if (result.format.kind === "tar") expect(result.format.compression).toBe(compression);
    expect(result.entries).toBeGreaterThanOrEqual(5);
    expect((await readdir(dir.path)).sort()).toEqual(["asset", "out", "src"]);
  });

  it("keeps the top directory without stripping, and drops entries strip_components consumes", async () => {
    await sh("tar -czf asset -C src tool-1.0");
    await unpackAsset(join(dir.path, "asset"), join(dir.path, "keep"), {
      assetType: archive(0),
      platform: "linux/amd64",
    });
    await expectTree(join(dir.path, "keep", "tool-1.0"));
    await unpackAsset(join(dir.path, "asset"), join(dir.path, "deep"), {
      assetType: archive(2),
      platform: "linux/amd64",
    });
    expect((await readdir(join(dir.path, "deep"))).sort()).toEqual(["alias", "doc.txt", "tool"]);
    await unpackAsset(join(dir.path, "asset"), join(dir.path, "none"), {
      assetType: archive(5),
      platform: "linux/amd64",
    });
    expect(await readdir(join(dir.path, "none"))).toEqual([]);
  });

  it("unpacks into an existing empty directory but refuses a non-empty one (64)", async () => {
    await sh("tar -cf asset -C src tool-1.0");
    const dest = join(dir.path, "dest");
    await mkdir(dest);
    await unpackAsset(join(dir.path, "asset"), dest, { assetType: archive(1), platform: "linux/amd64" });
    await expectTree(dest);
    const refused = await failure(
      unpackAsset(join(dir.path, "asset"), dest, { assetType: archive(1), platform: "linux/amd64" }),
    );
    expect(refused.exitCode).toBe(64);
    expect(refused.message).toMatch(/not an empty directory/);
  });
});

describe("unpackAsset: binaries", () => {
  it.each([
    ["gzip", "gzip -c src/tool-1.0/bin/tool > asset"],
    ["xz", "xz -c src/tool-1.0/bin/tool > asset"],
    ["zstd", "zstd -q -c src/tool-1.0/bin/tool > asset"],
    ["bzip2", "bzip2 -c src/tool-1.0/bin/tool > asset"],
  ])("decompresses a bare %s file into the named executable", async (compression, make) => {
    await sh(make);
    const dest = join(dir.path, "out");
    const result = await unpackAsset(join(dir.path, "asset"), dest, {
      assetType: { type: "binary", name: "mytool" },
      platform: "linux/arm64",
    });
    expect(result.format).toEqual({ kind: "compressed-file", compression });
    expect(await readdir(dest)).toEqual(["mytool"]);
    expect(await readFile(join(dest, "mytool"), "utf8")).toBe(SCRIPT);
    expect((await stat(join(dest, "mytool"))).mode & 0o777).toBe(0o755);
    const { stdout } = await runCommand(join(dest, "mytool"), []);
    expect(stdout).toBe("hello from tool\n");
  });

  it("places a plain binary under its name, with .exe kept for Windows", async () => {
    await sh("cp src/tool-1.0/bin/tool tool-windows-amd64.exe && chmod 644 tool-windows-amd64.exe");
    const asset = join(dir.path, "tool-windows-amd64.exe");
    const linux = await unpackAsset(asset, join(dir.path, "linux"), {
      assetType: { type: "binary", name: "tool" },
      platform: "linux/amd64",
    });
    expect(linux.format).toEqual({ kind: "plain-file" });
    expect(await readdir(join(dir.path, "linux"))).toEqual(["tool"]);
    await unpackAsset(asset, join(dir.path, "win"), {
      assetType: { type: "binary", name: "tool" },
      platform: "windows/amd64",
    });
    expect(await readdir(join(dir.path, "win"))).toEqual(["tool.exe"]);
    expect((await lstat(join(dir.path, "win", "tool.exe"))).size).toBe(SCRIPT.length);
  });

  it("names a Windows binary from a compressed .exe asset given by assetName", async () => {
    await sh("xz -c src/tool-1.0/bin/tool > download");
    await unpackAsset(join(dir.path, "download"), join(dir.path, "win"), {
      assetType: { type: "binary", name: "tool" },
      platform: "windows/arm64",
      assetName: "tool-1.0-windows.exe.xz",
    });
    expect(await readdir(join(dir.path, "win"))).toEqual(["tool.exe"]);
  });

  it("refuses content that does not fit the declared asset_type (65), naming the asset", async () => {
    await sh("gzip -c src/tool-1.0/bin/tool > tool.gz && tar -czf tool.tgz -C src tool-1.0");
    const asArchive = await failure(
      unpackAsset(join(dir.path, "tool.gz"), join(dir.path, "a"), {
        assetType: archive(0),
        platform: "linux/amd64",
      }),
    );
    expect(asArchive).toEqual({
      exitCode: 65,
      message: expect.stringMatching(
        /^tool\.gz: is a single gzip-compressed file, not an archive; declare asset_type type: binary/,
      ),
    });
    const asBinary = await failure(
      unpackAsset(join(dir.path, "tool.tgz"), join(dir.path, "b"), {
        assetType: { type: "binary", name: "tool" },
        platform: "linux/amd64",
      }),
    );
    expect(asBinary.exitCode).toBe(65);
    expect(asBinary.message).toMatch(/^tool\.tgz: is a gzip-compressed tar archive, not an executable/);
    expect((await readdir(dir.path)).sort()).toEqual(["src", "tool.gz", "tool.tgz"]);
  });

  it("reports a truncated archive as corrupt data (65) and leaves nothing behind", async () => {
    await sh(
      "head -c 300000 /dev/urandom > src/tool-1.0/noise && tar -cJf full -C src tool-1.0 && head -c 20000 full > cut && rm full",
    );
    const refused = await failure(
      unpackAsset(join(dir.path, "cut"), join(dir.path, "out"), {
        assetType: archive(1),
        platform: "linux/amd64",
      }),
    );
    expect(refused.exitCode).toBe(65);
    expect(refused.message).toMatch(/^cut: corrupt data in an xz-compressed tar archive/);
    expect((await readdir(dir.path)).sort()).toEqual(["cut", "src"]);
  });
});
