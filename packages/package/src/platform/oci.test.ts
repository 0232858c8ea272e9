import type { Platform } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import { parsePlatformKey } from "./key.js";
import { formatPlatform, platformKeyFromOci, platformsEqual, toOciPlatform } from "./oci.js";

describe("keys and OCI platforms", () => {
  it.each([
    ["linux/amd64", { architecture: "amd64", os: "linux" }],
    ["linux/arm/v7", { architecture: "arm", os: "linux", variant: "v7" }],
    ["linux/amd64+libc.musl", { architecture: "amd64", os: "linux", "os.features": ["libc.musl"] }],
    ["linux/arm64+libc.glibc", { architecture: "arm64", os: "linux", "os.features": ["libc.glibc"] }],
    ["darwin/arm64", { architecture: "arm64", os: "darwin" }],
  ])("%s round-trips", (text, platform) => {
    expect(toOciPlatform(parsePlatformKey(text))).toEqual(platform);
    expect(platformKeyFromOci(platform)?.key).toBe(text);
    expect(formatPlatform(platform)).toBe(text);
  });

  it.each([
    [
      { architecture: "amd64", os: "windows", "os.version": "10.0.20348" },
      "windows/amd64 (os.version 10.0.20348)",
    ],
    [{ architecture: "amd64", os: "windows", "os.features": ["win32k"] }, "windows/amd64+win32k"],
    [
      { architecture: "amd64", os: "linux", "os.features": ["libc.musl", "libc.glibc"] },
      "linux/amd64+libc.glibc,libc.musl",
    ],
    [{ architecture: "x86_64", os: "linux" }, "linux/x86_64"],
  ])("has no key for %j, but still a readable name", (platform: Platform, name) => {
    expect(platformKeyFromOci(platform)).toBeUndefined();
    expect(formatPlatform(platform)).toBe(name);
  });

  it("reads an empty variant or os.version as absent", () => {
    expect(
      platformKeyFromOci({ architecture: "amd64", os: "linux", variant: "", "os.version": "" })?.key,
    ).toBe("linux/amd64");
  });
});

describe("platformsEqual", () => {
  const base: Platform = { architecture: "amd64", os: "linux" };
  it.each([
    [base, { architecture: "amd64", os: "linux" }, true],
    [base, { ...base, "os.features": [] }, true],
    [base, { ...base, variant: "" }, true],
    [base, { ...base, "os.version": "" }, true],
    [
      { ...base, "os.features": ["libc.musl", "x"] },
      { ...base, "os.features": ["x", "libc.musl", "x"] },
      true,
    ],
    [base, { ...base, "os.features": ["libc.musl"] }, false],
    [{ ...base, "os.features": ["libc.glibc"] }, { ...base, "os.features": ["libc.musl"] }, false],
    [base, { ...base, architecture: "arm64" }, false],
    [base, { ...base, os: "darwin" }, false],
    [base, { ...base, variant: "v8" }, false],
    [{ ...base, "os.version": "1" }, { ...base, "os.version": "2" }, false],
  ])("%j = %j: %s", (a: Platform, b: Platform, equal) => {
    expect(platformsEqual(a, b)).toBe(equal);
    expect(platformsEqual(b, a)).toBe(equal);
  });
});
