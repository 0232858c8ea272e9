// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata under test
import { ExitCode, PkgError } from "@pkg/common";
import type { Metadata } from "@pkg/package";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { metadataWith, type TreeEntry, writeTree } from "../../../test/support/tree-fixture.js";
import { applyBinScan, scanBinaries } from "./binary-scan.js";

const exe = (mode = 0o755): TreeEntry => ({ file: "#!/bin/sh\n", mode });
const data = (mode = 0o644): TreeEntry => ({ file: "data", mode });
const subject = { target: "registry.test/acme/tool", version: "1.2.3" };
const binPath = metadataWith([["PATH", "${installPath}/bin"]]);

describe("scanBinaries", () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await tempDir("bin-scan-");
  });
  afterEach(async () => {
    await dir.remove();
  });

  const cases: Array<[string, Record<string, TreeEntry>, Metadata, string, string[]]> = [
    [
      "exec-bit files directly in PATH dirs; no recursion; directories and plain files left out",
      {
        "bin/tool": exe(),
        "bin/owner-x": exe(0o700),
        "bin/other-x": exe(0o601),
        "bin/notes.txt": data(),
        "bin/sub/deep": exe(),
        "bin/dir.d": { dir: true },
        outside: exe(),
      },
      binPath,
      "linux/amd64",
      ["other-x", "owner-x", "tool"],
    ],
    [
      "any interface-reaching path variable contributes, merged; private and constants never",
      {
        "bin/a": exe(),
        "libexec/b": exe(),
        "iface/c": exe(),
        "private/d": exe(),
        "const/e": exe(),
        "bin2/a": exe(),
      },
      {
        type: "bundle",
        version: 1,
        env: [
          { key: "PATH", type: "path", value: "${installPath}/bin" },
          { key: "PATH", type: "path", value: "${installPath}/bin2", visibility: "public" },
          { key: "TOOL_LIBEXEC", type: "path", value: "${installPath}/libexec" },
          { key: "IFACE", type: "path", value: "${installPath}/iface", visibility: "interface" },
          { key: "PATH", type: "path", value: "${installPath}/private", visibility: "private" },
          { key: "CONST", type: "constant", value: "${installPath}/const" },
        ],
      },
      "linux/amd64",
      ["a", "b", "c"],
    ],
    [
      "paths not rooted at ${installPath}, or leaving it, contribute nothing",
      { "bin/a": exe(), "up/b": exe() },
      metadataWith([
        ["PATH", "/usr/bin"],
        ["PATH", "${installPath}/../up"],
        ["PATH", "${deps.x.installPath}/bin"],
      ]),
      "linux/amd64",
      [],
    ],
    [
      "symlinks are followed and claim the link's name; a dangling link claims nothing",
      {
        "libexec/real-tool": exe(),
        "share/not-exec": data(),
        "bin/tool": { symlink: "../libexec/real-tool" },
        "bin/data-link": { symlink: "../share/not-exec" },
        "bin/dangling": { symlink: "../nowhere" },
        "bin/dir-link": { symlink: "../libexec" },
      },
      binPath,
      "linux/arm64",
      ["tool"],
    ],
    [
      "windows: executable extensions stripped in any case; the exec bit is ignored",
      {
        "bin/tool.exe": data(),
        "bin/run.BAT": data(),
        "bin/x.cmd": exe(),
        "bin/y.Com": data(),
        "bin/unix-style": exe(),
        "bin/readme.txt": data(),
        "bin/lib.dll": exe(),
        "bin/.exe": data(),
      },
      binPath,
      "windows/amd64",
      ["run", "tool", "x", "y"],
    ],
    [
      "windows: a symlink claims its own stripped name",
      { "libexec/real.exe": data(), "bin/alias.exe": { symlink: "../libexec/real.exe" } },
      binPath,
      "windows/arm64",
      ["alias"],
    ],
    [
      "non-windows: extensions are kept as part of the name",
      { "bin/tool.exe": exe(), "bin/run.sh": exe() },
      binPath,
      "darwin/arm64",
      ["run.sh", "tool.exe"],
    ],
    ["a missing scan directory finds nothing", { "other/tool": exe() }, binPath, "linux/amd64", []],
    [
      "one name in two directories is claimed once",
      { "bin/tool": exe(), "bin2/tool": exe() },
      metadataWith([
        ["PATH", "${installPath}/bin"],
        ["PATH", "${installPath}/bin2"],
      ]),
      "linux/amd64",
      ["tool"],
    ],
  ];

  test.each(cases)("%s", async (_name, tree, metadata, platform, expected) => {
    await writeTree(dir.path, tree);
    expect(await scanBinaries(dir.path, metadata, platform)).toEqual(expected);
  });
});

describe("applyBinScan", () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await tempDir("bin-scan-apply-");
  });
  afterEach(async () => {
    await dir.remove();
  });

  const withBinaries = (binaries?: string[]) => metadataWith([["PATH", "${installPath}/bin"]], binaries);

  async function failure(run: Promise<unknown>): Promise<PkgError> {
    const error = await run.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PkgError);
    return error as PkgError;
  }

  const passing: Array<
    [string, "off" | "auto" | "verify", Record<string, TreeEntry>, string[] | undefined, string[] | undefined]
  > = [
    ["off leaves an absent claim absent", "off", { "bin/tool": exe() }, undefined, undefined],
    ["off keeps a wrong claim, unchecked", "off", { "bin/tool": data() }, ["other"], ["other"]],
    [
      "auto fills an absent claim",
      "auto",
      { "bin/b": exe(), "bin/a": exe(), "bin/c": data() },
      undefined,
      ["a", "b"],
    ],
    ["auto keeps a declared claim unverified", "auto", { "bin/tool": exe(), "bin/x": data() }, ["x"], ["x"]],
    ["auto finding nothing adds no claim", "auto", { "bin/notes": data() }, undefined, undefined],
    ["verify fills an absent claim", "verify", { "bin/tool": exe() }, undefined, ["tool"]],
    ["verify passes an exact claim", "verify", { "bin/a": exe(), "bin/b": exe() }, ["a", "b"], ["a", "b"]],
    [
      "verify: a listed name the tree lacks is fine",
      "verify",
      { "bin/a": exe() },
      ["a", "gone"],
      ["a", "gone"],
    ],
    [
      "verify: a listed non-executable file outside the PATH dirs is fine",
      "verify",
      { "bin/a": exe(), "share/b": data() },
      ["a", "b"],
      ["a", "b"],
    ],
  ];

  test.each(passing)("%s", async (_name, mode, tree, declared, expected) => {
    await writeTree(dir.path, tree);
    const result = await applyBinScan(mode, dir.path, withBinaries(declared), "linux/amd64", subject);
    expect(result.binaries).toEqual(expected);
    expect(result.env).toEqual(withBinaries().env);
  });

  test("verify: an interface executable missing from the claim is DeclaredNotExecutable", async () => {
    await writeTree(dir.path, { "bin/tool": exe(), "bin/extra": exe() });
    const error = await failure(
      applyBinScan("verify", dir.path, withBinaries(["tool"]), "linux/amd64", subject),
    );
    expect(error.detail).toBe("DeclaredNotExecutable");
    expect(error.exitCode).toBe(ExitCode.Data);
    expect(error.message).toBe(
      'bin_scan verify: registry.test/acme/tool 1.2.3 linux/amd64: DeclaredNotExecutable: bin/extra is executable on the interface but "extra" is not listed in binaries',
    );
  });

  test("verify: an unlisted executable in another interface variable's directory fails too", async () => {
    await writeTree(dir.path, { "bin/tool": exe(), "libexec/helper": exe() });
    const metadata = metadataWith(
      [
        ["PATH", "${installPath}/bin"],
        ["HELPERS", "${installPath}/libexec"],
      ],
      ["tool"],
    );
    const error = await failure(applyBinScan("verify", dir.path, metadata, "linux/amd64", subject));
    expect(error.message).toContain("libexec/helper is executable on the interface");
  });

  test("verify: a listed name present in a PATH dir but not executable is DeclaredNotExecutable", async () => {
    await writeTree(dir.path, { "bin/tool": data(), "bin/ok": exe() });
    const error = await failure(
      applyBinScan("verify", dir.path, withBinaries(["ok", "tool"]), "linux/amd64", subject),
    );
    expect(error.detail).toBe("DeclaredNotExecutable");
    expect(error.message).toContain('bin/tool is listed in binaries as "tool" but is not executable');
    expect(error.message).not.toContain("bin/ok");
  });

  test("verify: a symlink to a non-executable file is not executable; every problem is named", async () => {
    await writeTree(dir.path, {
      "share/tool": data(),
      "bin/tool": { symlink: "../share/tool" },
      "bin/stray": exe(),
    });
    const error = await failure(
      applyBinScan("verify", dir.path, withBinaries(["tool"]), "linux/amd64", subject),
    );
    expect(error.message).toContain('bin/tool is listed in binaries as "tool" but is not executable');
    expect(error.message).toContain('"stray" is not listed');
  });

  test("verify on windows: tool.exe satisfies tool; an extensionless tool does not", async () => {
    await writeTree(dir.path, { "bin/tool.exe": data(), "bin/helper": exe() });
    const ok = await applyBinScan("verify", dir.path, withBinaries(["tool"]), "windows/amd64", subject);
    expect(ok.binaries).toEqual(["tool"]);
    const error = await failure(
      applyBinScan("verify", dir.path, withBinaries(["tool", "helper"]), "windows/amd64", subject),
    );
    expect(error.message).toBe(
      'bin_scan verify: registry.test/acme/tool 1.2.3 windows/amd64: DeclaredNotExecutable: bin/helper is listed in binaries as "helper" but is not executable',
    );
  });

  test("the input metadata is never modified", async () => {
    await writeTree(dir.path, { "bin/tool": exe() });
    const input = withBinaries();
    const before = structuredClone(input);
    await applyBinScan("auto", dir.path, input, "linux/amd64", subject);
    expect(input).toEqual(before);
  });
});
