// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata under test
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, type Logger, PkgError, silentTasks } from "@pkg/common";
import { libcOfLoader, parsePlatformKey } from "@pkg/package";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { buildElf } from "../../../test/support/elf-fixture.js";
import { metadataWith, type TreeEntry, writeTree } from "../../../test/support/tree-fixture.js";
import { readElfInterpreter } from "./elf-file.js";
import { lintLibc } from "./libc-lint.js";
import { keyForLibc } from "./loader.js";

const MUSL = "/lib/ld-musl-x86_64.so.1";
const GLIBC = "/lib64/ld-linux-x86-64.so.2";
const elf = (interpreter?: string, bits: 32 | 64 = 64, endian: "little" | "big" = "little"): TreeEntry => ({
  file: buildElf({ bits, endian, ...(interpreter === undefined ? {} : { interpreter }) }),
  mode: 0o755,
});
const subject = { target: "registry.test/acme/tool", version: "1.2.3" };
const binPath = metadataWith([["PATH", "${installPath}/bin"]]);

describe("libcOfLoader and keyForLibc", () => {
  test.each([
    ["/lib/ld-musl-x86_64.so.1", "musl"],
    ["/lib/ld-musl-aarch64.so.1", "musl"],
    ["/lib/ld-musl-armhf.so.1", "musl"],
    ["/lib64/ld-linux-x86-64.so.2", "glibc"],
    ["/lib/ld-linux-aarch64.so.1", "glibc"],
    ["/lib/ld-linux-armhf.so.3", "glibc"],
    ["/lib/ld-linux.so.2", "glibc"],
    ["/lib64/ld64.so.2", "glibc"],
    ["/lib/ld64.so.1", "glibc"],
    ["/system/bin/linker64", undefined],
    ["/nix/store/x/lib/ld-wrapper", undefined],
  ])("%s -> %s", (loader, libc) => {
    expect(libcOfLoader(loader)).toBe(libc);
  });

  test.each([
    ["linux/amd64", "musl", "linux/amd64+libc.musl"],
    ["linux/amd64+libc.musl", "glibc", "linux/amd64+libc.glibc"],
    ["linux/arm/v7+libc.glibc", "musl", "linux/arm/v7+libc.musl"],
  ] as const)("%s needing %s belongs under %s", (key, libc, expected) => {
    expect(keyForLibc(parsePlatformKey(key), libc)).toBe(expected);
  });
});

describe("lintLibc", () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await tempDir("libc-lint-");
  });
  afterEach(async () => {
    await dir.remove();
  });

  async function outcome(platform: string, tree: Record<string, TreeEntry>, metadata = binPath) {
    await writeTree(dir.path, tree);
    return lintLibc(dir.path, metadata, platform, subject).then(
      () => "pass",
      (error: unknown) => {
        if (!(error instanceof PkgError)) throw error;
        return error;
      },
    );
  }

  // key, what bin/tool is, passes?
  const table: Array<[string, TreeEntry, boolean]> = [
    ["linux/amd64+libc.glibc", elf(GLIBC), true],
    ["linux/amd64+libc.glibc", elf(MUSL), false],
    ["linux/amd64+libc.musl", elf(MUSL), true],
    ["linux/amd64+libc.musl", elf(GLIBC), false],
    ["linux/ppc64le+libc.musl", elf("/lib64/ld64.so.2", 64, "big"), false],
    ["linux/amd64", elf(GLIBC), false],
    ["linux/amd64", elf(MUSL), false],
    ["linux/386", elf("/lib/ld-linux.so.2", 32), false],
    ["linux/mips+libc.musl", elf("/lib/ld-musl-mips.so.1", 32, "big"), true],
    ["linux/amd64", elf(), true],
    ["linux/amd64+libc.glibc", elf(), true],
    ["linux/amd64+libc.musl", elf(undefined, 32, "big"), true],
    ["linux/amd64", elf("/system/bin/linker64"), true],
    ["linux/amd64", { file: "#!/bin/sh\nexec true\n", mode: 0o755 }, true],
    ["linux/amd64", { file: new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 9, 9]), mode: 0o755 }, true],
    ["darwin/arm64", elf(GLIBC), true],
    ["windows/amd64", elf(MUSL), true],
  ];
  test.each(table)("%s with bin/tool %# passes: %s", async (platform, tool, passes) => {
    const result = await outcome(platform, { "bin/tool": tool });
    if (passes) expect(result).toBe("pass");
    else expect(result).toBeInstanceOf(PkgError);
  });

  test("a false claim under a bare key names target, version, platform, file, loader and the correct key", async () => {
    const error = await outcome("linux/amd64", { "bin/tool": elf(GLIBC) });
    expect(error).toBeInstanceOf(PkgError);
    const { message, exitCode, detail } = error as PkgError;
    expect(exitCode).toBe(ExitCode.Data);
    expect(detail).toBe("LibcMismatch");
    expect(message).toBe(
      "libc_lint: registry.test/acme/tool 1.2.3 linux/amd64: bin/tool needs glibc (loader /lib64/ld-linux-x86-64.so.2) but the key declares no libc; the correct platform key is linux/amd64+libc.glibc",
    );
  });

  test("a musl binary under a glibc key names the musl key; every offending file is named", async () => {
    const error = await outcome("linux/arm64+libc.glibc", {
      "bin/a": elf("/lib/ld-musl-aarch64.so.1"),
      "bin/b": elf("/lib/ld-linux-aarch64.so.1"),
      "bin/c": elf("/lib/ld-musl-aarch64.so.1"),
    });
    expect((error as PkgError).message).toBe(
      "libc_lint: registry.test/acme/tool 1.2.3 linux/arm64+libc.glibc: " +
        "bin/a needs musl (loader /lib/ld-musl-aarch64.so.1) but the key declares libc.glibc; the correct platform key is linux/arm64+libc.musl; " +
        "bin/c needs musl (loader /lib/ld-musl-aarch64.so.1) but the key declares libc.glibc; the correct platform key is linux/arm64+libc.musl",
    );
  });

  test("only the interface PATH is read: other dirs, private PATH entries and subdirectories are not", async () => {
    const metadata = metadataWith([
      ["PATH", "${installPath}/bin"],
      ["PATH", "${installPath}/private", "private"],
      ["TOOL_LIBEXEC", "${installPath}/libexec"],
    ]);
    const result = await outcome(
      "linux/amd64+libc.musl",
      {
        "bin/tool": elf(MUSL),
        "bin/nested/glibc": elf(GLIBC),
        "private/glibc": elf(GLIBC),
        "libexec/glibc": elf(GLIBC),
        "lib/libfoo.so": elf(GLIBC),
      },
      metadata,
    );
    expect(result).toBe("pass");
  });

  test("an interface-visibility PATH entry is read", async () => {
    const metadata = metadataWith([["PATH", "${installPath}/tools", "interface"]]);
    const result = await outcome("linux/amd64+libc.musl", { "tools/x": elf(GLIBC) }, metadata);
    expect((result as PkgError).message).toContain("tools/x needs glibc");
  });

  test("files are read whatever their mode, and symlinks are followed under the link's name", async () => {
    const result = await outcome("linux/amd64+libc.glibc", {
      "bin/not-executable": { ...elf(GLIBC), mode: 0o644 },
      "libexec/real": elf(MUSL),
      "bin/alias": { symlink: "../libexec/real" },
    });
    expect((result as PkgError).message).toContain("bin/alias needs musl");
    expect((result as PkgError).message).not.toContain("not-executable");
  });

  test("a real glibc executable from this machine passes under glibc and is refused under musl", async () => {
    const real = await readElfInterpreter("/bin/ls");
    expect(real.kind).toBe("dynamic");
    const loader = real.kind === "dynamic" ? real.interpreter : "";
    await writeTree(dir.path, { bin: { dir: true } });
    await copyFile("/bin/ls", join(dir.path, "bin/ls"));
    await lintLibc(dir.path, binPath, "linux/amd64+libc.glibc", subject);
    const error = await lintLibc(dir.path, binPath, "linux/amd64+libc.musl", subject).catch(
      (e: unknown) => e,
    );
    expect((error as PkgError).message).toBe(
      `libc_lint: registry.test/acme/tool 1.2.3 linux/amd64+libc.musl: bin/ls needs glibc (loader ${loader}) but the key declares libc.musl; the correct platform key is linux/amd64+libc.glibc`,
    );
  });

  test("a real static-pie executable from this machine passes under a bare key", async () => {
    await writeTree(dir.path, { bin: { dir: true } });
    await copyFile("/sbin/ldconfig", join(dir.path, "bin/ldconfig"));
    await lintLibc(dir.path, binPath, "linux/amd64", subject);
  });

  test("libc_lint: false skips the check with a log line naming target and platform", async () => {
    await writeTree(dir.path, { "bin/tool": elf(GLIBC) });
    const lines: string[] = [];
    const log: Logger = {
      info: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      progress() {},
      tasks: silentTasks,
    };
    await lintLibc(dir.path, binPath, "linux/amd64+libc.musl", { ...subject, enabled: false, log });
    expect(lines).toEqual([
      "libc_lint: false: skipping the libc check of registry.test/acme/tool linux/amd64+libc.musl",
    ]);
  });

  test("a package without a PATH has nothing to check", async () => {
    await writeTree(dir.path, { "bin/tool": elf(GLIBC) });
    await lintLibc(dir.path, metadataWith([]), "linux/amd64", subject);
  });
});
