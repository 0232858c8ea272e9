import { ExitCode } from "@pkg/common";
import type { Platform } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import {
  detectHostPlatform,
  type HostPlatform,
  hostFromPlatformKey,
  matchesHost,
  selectPlatformEntry,
} from "./host.js";

const glibcHost: HostPlatform = { os: "linux", architecture: "amd64", libc: "glibc" };
const muslHost: HostPlatform = { os: "linux", architecture: "amd64", libc: "musl" };

const plain: Platform = { os: "linux", architecture: "amd64" };
const musl: Platform = { ...plain, "os.features": ["libc.musl"] };
const glibc: Platform = { ...plain, "os.features": ["libc.glibc"] };

describe("matchesHost", () => {
  it.each([
    [plain, glibcHost, true],
    [plain, muslHost, true],
    [plain, { os: "linux", architecture: "amd64" }, true],
    [musl, muslHost, true],
    [musl, glibcHost, false],
    [musl, { os: "linux", architecture: "amd64" }, false],
    [glibc, glibcHost, true],
    [glibc, muslHost, false],
    [{ ...plain, "os.features": ["win32k"] }, glibcHost, false],
    [{ ...plain, architecture: "arm64" }, glibcHost, false],
    [{ os: "darwin", architecture: "amd64" }, glibcHost, false],
    [
      { os: "linux", architecture: "arm", variant: "v7" },
      { os: "linux", architecture: "arm", variant: "v7" },
      true,
    ],
    [
      { os: "linux", architecture: "arm", variant: "v7" },
      { os: "linux", architecture: "arm", variant: "v6" },
      false,
    ],
    [{ os: "linux", architecture: "arm", variant: "v7" }, { os: "linux", architecture: "arm" }, false],
    [{ os: "linux", architecture: "arm" }, { os: "linux", architecture: "arm", variant: "v7" }, true],
  ])("%j on %j: %s", (platform: Platform, host: HostPlatform, matches) => {
    expect(matchesHost(platform, host)).toBe(matches);
  });
});

describe("selectPlatformEntry", () => {
  const entry = (name: string, platform?: Platform) => ({ name, ...(platform ? { platform } : {}) });

  it("prefers the entry declaring the host's libc over a featureless one, in any order", () => {
    const entries = [entry("plain", plain), entry("musl", musl), entry("glibc", glibc)];
    expect(selectPlatformEntry(entries, muslHost)?.name).toBe("musl");
    expect(selectPlatformEntry(entries, glibcHost)?.name).toBe("glibc");
    expect(selectPlatformEntry([...entries].reverse(), muslHost)?.name).toBe("musl");
  });

  it("falls back to the featureless entry when no libc matches", () => {
    expect(selectPlatformEntry([entry("glibc", glibc), entry("plain", plain)], muslHost)?.name).toBe("plain");
  });

  it("finds nothing when only another libc is offered", () => {
    expect(
      selectPlatformEntry(
        [entry("glibc", glibc), entry("arm", { ...plain, architecture: "arm64" })],
        muslHost,
      ),
    ).toBe(undefined);
  });

  it("prefers the host's CPU variant, and takes a portable entry only when nothing matches", () => {
    const arm = { os: "linux", architecture: "arm" };
    const entries = [entry("portable"), entry("arm", arm), entry("v7", { ...arm, variant: "v7" })];
    expect(selectPlatformEntry(entries, { ...arm, variant: "v7" })?.name).toBe("v7");
    expect(selectPlatformEntry(entries, { ...arm, variant: "v6" })?.name).toBe("arm");
    expect(selectPlatformEntry(entries, glibcHost)?.name).toBe("portable");
  });
});

describe("hosts", () => {
  it("describes the machine the tests run on", () => {
    const host = detectHostPlatform();
    expect(host.os).toBe(process.platform === "win32" ? "windows" : process.platform);
    if (process.arch === "x64") expect(host.architecture).toBe("amd64");
    if (host.os === "linux") expect(["glibc", "musl"]).toContain(host.libc);
    else expect(host.libc).toBeUndefined();
    if (host.os === "linux") expect(detectHostPlatform("musl").libc).toBe("musl");
  });

  it("builds a host from a key and a libc", () => {
    expect(hostFromPlatformKey("linux/arm/v7+libc.musl")).toEqual({
      os: "linux",
      architecture: "arm",
      variant: "v7",
      libc: "musl",
    });
    expect(hostFromPlatformKey("linux/amd64", "glibc")).toEqual(glibcHost);
    expect(hostFromPlatformKey("darwin/arm64")).toEqual({ os: "darwin", architecture: "arm64" });
    expect(() => hostFromPlatformKey("linux/amd64+libc.musl", "glibc")).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.Usage,
        message: expect.stringContaining("declares musl"),
      }),
    );
    expect(() => hostFromPlatformKey("linux")).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
  });
});
