// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata under test
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { type Logger, PkgError, silentTasks } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { buildElf } from "../../../test/support/elf-fixture.js";
import { metadataWith, writeTree } from "../../../test/support/tree-fixture.js";
import { prepareContent } from "./prepare.js";

const subject = { target: "registry.test/acme/tool", version: "2.0.0" };
const musl = buildElf({ bits: 64, endian: "little", interpreter: "/lib/ld-musl-x86_64.so.1" });

describe("prepareContent", () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await tempDir("prepare-content-");
  });
  afterEach(async () => {
    await dir.remove();
  });
  const modeOf = async (path: string) => (await stat(join(dir.path, path))).mode & 0o777;

  test("off: declared binaries become executable; the claim stays as declared", async () => {
    await writeTree(dir.path, {
      "bin/tool": { file: musl, mode: 0o644 },
      "bin/extra": { file: "x", mode: 0o755 },
    });
    const metadata = metadataWith([["PATH", "${installPath}/bin"]], ["tool"]);
    const prepared = await prepareContent({
      ...subject,
      tree: dir.path,
      metadata,
      platform: "linux/amd64+libc.musl",
      settings: { binScan: "off", libcLint: true },
    });
    expect(prepared).toEqual({ metadata, madeExecutable: ["bin/tool"] });
    expect(await modeOf("bin/tool")).toBe(0o755);
  });

  test("auto: a non-executable file nobody declared stays non-executable and unclaimed", async () => {
    await writeTree(dir.path, {
      "bin/tool": { file: "x", mode: 0o644 },
      "bin/helper": { file: "x", mode: 0o644 },
    });
    const declaredNowhere = metadataWith([["PATH", "${installPath}/bin"]]);
    const prepared = await prepareContent({
      ...subject,
      tree: dir.path,
      metadata: declaredNowhere,
      platform: "linux/amd64",
      settings: { binScan: "auto", libcLint: true },
    });
    expect(prepared.metadata.binaries).toBeUndefined();
    expect(prepared.madeExecutable).toEqual([]);
    expect(await modeOf("bin/helper")).toBe(0o644);
  });

  test("verify: no chmod runs, so a declared non-executable binary fails with DeclaredNotExecutable", async () => {
    await writeTree(dir.path, { "bin/tool": { file: "x", mode: 0o644 } });
    const error = await prepareContent({
      ...subject,
      tree: dir.path,
      metadata: metadataWith([["PATH", "${installPath}/bin"]], ["tool"]),
      platform: "linux/amd64",
      settings: { binScan: "verify", libcLint: true },
    }).catch((e: unknown) => e);
    expect((error as PkgError).detail).toBe("DeclaredNotExecutable");
    expect(await modeOf("bin/tool")).toBe(0o644);
  });

  test("the libc lint runs on the prepared tree, and libc_lint: false turns it into a log line", async () => {
    await writeTree(dir.path, { "bin/tool": { file: musl, mode: 0o755 } });
    const options = {
      ...subject,
      tree: dir.path,
      metadata: metadataWith([["PATH", "${installPath}/bin"]]),
      platform: "linux/amd64",
    };
    const error = await prepareContent({ ...options, settings: { binScan: "auto", libcLint: true } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PkgError);
    expect((error as PkgError).message).toContain("the correct platform key is linux/amd64+libc.musl");

    const lines: string[] = [];
    const log: Logger = {
      info: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      progress() {},
      tasks: silentTasks,
    };
    const prepared = await prepareContent({
      ...options,
      settings: { binScan: "auto", libcLint: false },
      log,
    });
    expect(prepared.metadata.binaries).toEqual(["tool"]);
    expect(lines).toEqual([
      "libc_lint: false: skipping the libc check of registry.test/acme/tool linux/amd64",
    ]);
  });
});
