import { ExitCode, PkgError } from "@pkg/common";
import { describe, expect, it } from "vitest";
import { libcOf, parsePlatformKey, platformSlug } from "./key.js";

describe("platform key grammar", () => {
  it.each([
    ["linux/amd64", { os: "linux", architecture: "amd64", features: [] }, "linux-amd64"],
    ["darwin/arm64", { os: "darwin", architecture: "arm64", features: [] }, "darwin-arm64"],
    ["windows/amd64", { os: "windows", architecture: "amd64", features: [] }, "windows-amd64"],
    ["linux/arm/v7", { os: "linux", architecture: "arm", variant: "v7", features: [] }, "linux-arm-v7"],
    [
      "linux/amd64+libc.glibc",
      { os: "linux", architecture: "amd64", features: ["libc.glibc"] },
      "linux-amd64-glibc",
    ],
    [
      "linux/arm64+libc.musl",
      { os: "linux", architecture: "arm64", features: ["libc.musl"] },
      "linux-arm64-musl",
    ],
    [
      "linux/arm/v6+libc.musl",
      { os: "linux", architecture: "arm", variant: "v6", features: ["libc.musl"] },
      "linux-arm-v6-musl",
    ],
  ])("%s", (text, fields, slug) => {
    const key = parsePlatformKey(text);
    expect(key).toEqual({ key: text, ...fields });
    expect(platformSlug(key)).toBe(slug);
  });

  it.each([
    ["", "expected <os>/<arch>"],
    ["linux", "expected <os>/<arch>"],
    ["linux/amd64/v1/x", "expected <os>/<arch>"],
    ["/amd64", "os is empty"],
    ["linux/", "architecture is empty"],
    ["linux/arm/", "variant is empty"],
    ["Linux/amd64", 'os "Linux" must be lowercase'],
    ["linux/x86_64", 'architecture "x86_64" must be lowercase letters and digits'],
    ["linux/amd64 ", "must be lowercase letters and digits"],
    ["linux/amd64/musl", "is a libc, not a CPU variant"],
    ["linux/amd64+", 'nothing follows "+"'],
    ["linux/amd64+musl", 'unknown feature "musl"'],
    ["linux/amd64+glibc.2.17", 'unknown feature "glibc.2.17"'],
    ["linux/amd64+libc.uclibc", 'unknown libc flavor "uclibc"'],
    ["linux/amd64+libc.musl,libc.musl", "libc.musl is given twice"],
    ["linux/amd64+libc.glibc,libc.musl", "declares both glibc and musl"],
    ["linux/amd64+libc.musl,", "unknown feature"],
    ["darwin/arm64+libc.glibc", "only declared on linux keys, not on darwin"],
    ["windows/amd64+libc.musl", "not on windows"],
  ])("refuses %j (%s)", (text, reason) => {
    let error: unknown;
    try {
      parsePlatformKey(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PkgError);
    expect((error as PkgError).exitCode).toBe(ExitCode.Usage);
    expect((error as PkgError).message.startsWith(`invalid platform key ${JSON.stringify(text)}: `)).toBe(
      true,
    );
    expect((error as PkgError).message).toContain(reason);
  });

  it("reports a bad key in a spec file as a data error when asked", () => {
    expect(() => parsePlatformKey("linux", ExitCode.Data)).toThrow(
      expect.objectContaining({ exitCode: ExitCode.Data }),
    );
  });

  it("knows a key's libc", () => {
    expect(libcOf(parsePlatformKey("linux/amd64+libc.musl"))).toBe("musl");
    expect(libcOf(parsePlatformKey("linux/amd64"))).toBeUndefined();
  });

  it("gives distinct keys distinct slugs", () => {
    const keys = [
      "linux/amd64",
      "linux/amd64+libc.glibc",
      "linux/amd64+libc.musl",
      "linux/arm/v7",
      "linux/arm/v7+libc.musl",
      "linux/arm64",
      "darwin/amd64",
    ];
    expect(new Set(keys.map((k) => platformSlug(parsePlatformKey(k)))).size).toBe(keys.length);
  });
});
