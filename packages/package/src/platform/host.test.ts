import { ExitCode } from "@pkg/common";
import type { Platform } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import {
  dependencyHost,
  detectHostPlatform,
  formatHost,
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

  it("prefers a featureless entry (it runs on every libc) over one declaring the host's, in any order", () => {
    const entries = [entry("musl", musl), entry("plain", plain), entry("glibc", glibc)];
    expect(selectPlatformEntry(entries, muslHost)?.name).toBe("plain");
    expect(selectPlatformEntry(entries, glibcHost)?.name).toBe("plain");
    expect(selectPlatformEntry([...entries].reverse(), muslHost)?.name).toBe("plain");
  });

  it("takes the entry declaring the host's libc when there is no featureless one", () => {
    const entries = [entry("musl", musl), entry("glibc", glibc)];
    expect(selectPlatformEntry(entries, glibcHost)?.name).toBe("glibc");
    expect(selectPlatformEntry(entries, muslHost)?.name).toBe("musl");
    expect(selectPlatformEntry([...entries].reverse(), glibcHost)?.name).toBe("glibc");
    // the defect: a glibc-only index, pulled with --platform linux/amd64 on a glibc host
    const keyed = hostFromPlatformKey("linux/amd64", undefined, () => "glibc");
    expect(selectPlatformEntry([entry("glibc", glibc)], keyed)?.name).toBe("glibc");
  });

  it("a key naming its libc requires that entry of the package, while its dependencies may be featureless", () => {
    const keyed = hostFromPlatformKey("linux/amd64+libc.glibc");
    const entries = [entry("plain", plain), entry("musl", musl)];
    expect(selectPlatformEntry(entries, keyed)).toBeUndefined();
    expect(selectPlatformEntry(entries, dependencyHost(keyed))?.name).toBe("plain");
    expect(selectPlatformEntry([entry("glibc", glibc), ...entries], dependencyHost(keyed))?.name).toBe(
      "plain",
    );
  });

  it("falls back to the featureless entry when no libc matches", () => {
    expect(selectPlatformEntry([entry("glibc", glibc), entry("plain", plain)], muslHost)?.name).toBe("plain");
  });

  it("takes only the named libc when the key names one", () => {
    const wantMusl = hostFromPlatformKey("linux/amd64+libc.musl", undefined, () => "glibc");
    expect(selectPlatformEntry([entry("plain", plain), entry("musl", musl)], wantMusl)?.name).toBe("musl");
    expect(selectPlatformEntry([entry("plain", plain), entry("glibc", glibc)], wantMusl)).toBe(undefined);
    const wantGlibc = hostFromPlatformKey("linux/amd64+libc.glibc", undefined, () => "musl");
    const all = [entry("plain", plain), entry("musl", musl), entry("glibc", glibc)];
    expect(selectPlatformEntry(all, wantGlibc)?.name).toBe("glibc");
  });

  it("knows no libc for a host it cannot tell, and then takes featureless entries only", () => {
    const unknown = hostFromPlatformKey("linux/amd64", undefined, () => undefined);
    expect(unknown.libc).toBeUndefined();
    expect(selectPlatformEntry([entry("glibc", glibc)], unknown)).toBe(undefined);
    expect(selectPlatformEntry([entry("glibc", glibc), entry("plain", plain)], unknown)?.name).toBe("plain");
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
    expect(hostFromPlatformKey("linux/arm/v7+libc.musl", undefined, () => "glibc")).toEqual({
      os: "linux",
      architecture: "arm",
      variant: "v7",
      libc: "musl",
      libcRequired: true,
    });
    expect(hostFromPlatformKey("linux/amd64", "glibc", () => "musl")).toEqual(glibcHost);
    expect(hostFromPlatformKey("linux/amd64", undefined, () => "glibc")).toEqual(glibcHost);
    expect(hostFromPlatformKey("linux/amd64", undefined, () => "musl")).toEqual(muslHost);
    expect(hostFromPlatformKey("darwin/arm64", undefined, () => "glibc")).toEqual({
      os: "darwin",
      architecture: "arm64",
    });
    if (detectHostPlatform().os === "linux") {
      expect(hostFromPlatformKey("linux/amd64").libc).toBe(detectHostPlatform().libc);
    }
    expect(() => hostFromPlatformKey("linux/amd64+libc.musl", "glibc")).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.Usage,
        message: expect.stringContaining("declares musl"),
      }),
    );
    expect(() => hostFromPlatformKey("linux")).toThrow(expect.objectContaining({ exitCode: ExitCode.Usage }));
  });
  it("reads a host back for people", () => {
    expect(formatHost(glibcHost)).toBe("linux/amd64 (host libc glibc)");
    expect(formatHost(hostFromPlatformKey("linux/arm/v7+libc.musl"))).toBe("linux/arm/v7+libc.musl");
    expect(formatHost({ os: "darwin", architecture: "arm64" })).toBe("darwin/arm64");
  });
});
