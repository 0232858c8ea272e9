import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executableLibc, hostLibc, libcOfLoader, reportedLibc } from "./host-libc.js";

describe("libcOfLoader", () => {
  it.each([
    ["/lib/ld-musl-x86_64.so.1", "musl"],
    ["/lib/ld-musl-aarch64.so.1", "musl"],
    ["/lib64/ld-linux-x86-64.so.2", "glibc"],
    ["/lib/ld-linux-armhf.so.3", "glibc"],
    ["/lib/ld-linux.so.2", "glibc"],
    ["/lib64/ld64.so.2", "glibc"],
    ["/nix/store/abc-glibc-2.40/lib/ld-linux-x86-64.so.2", "glibc"],
    ["/system/bin/linker64", undefined],
    ["/lib/ld.so.1", undefined],
  ])("%s is %s", (loader, libc) => {
    expect(libcOfLoader(loader)).toBe(libc);
  });
});

describe("executableLibc", () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await tempDir("pkg-host-libc-");
  });
  afterAll(async () => {
    await dir?.remove();
  });

  it("is unknown for a missing file, a script and a file too short to be ELF", async () => {
    const script = join(dir.path, "script");
    await writeFile(script, "#!/bin/sh\necho hi\n");
    const stub = join(dir.path, "stub");
    await writeFile(stub, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]));
    expect(executableLibc(join(dir.path, "missing"))).toBeUndefined();
    expect(executableLibc(script)).toBeUndefined();
    expect(executableLibc(stub)).toBeUndefined();
  });
});

describe.runIf(process.platform === "linux")("this host's libc", () => {
  it("is read from Node's own executable, and is what Node's diagnostic report says", () => {
    expect(executableLibc(process.execPath)).toBe(reportedLibc());
    expect(hostLibc()).toBe(reportedLibc());
  });
});
