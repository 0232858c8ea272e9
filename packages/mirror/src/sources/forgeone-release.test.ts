import { RE2JS } from "re2js";
import { describe, expect, test } from "vitest";
import { DEFAULT_TAG_PATTERN } from "../spec/source-forgeone.js";
import { isForgeRelease, releaseVersion, versionFromTag } from "./forgeone-release.js";

describe("tags to versions", () => {
  const defaults = RE2JS.compile(DEFAULT_TAG_PATTERN);

  test("the default pattern: optional v, x.y.z, optional -suffix marking a pre-release", () => {
    expect(versionFromTag("v1.2.3", defaults)).toEqual({ version: "1.2.3", prerelease: false });
    expect(versionFromTag("1.2.3-beta2", defaults)).toEqual({ version: "1.2.3-beta2", prerelease: true });
    expect(versionFromTag("v1.2", defaults)).toBeUndefined();
    expect(versionFromTag("tool-v1.2.3", defaults)).toBeUndefined();
  });

  test("a pattern without a prerelease group; a match anywhere in the tag unless anchored", () => {
    const custom = RE2JS.compile("release-(?P<version>[0-9]+\\.[0-9]+)");
    expect(versionFromTag("tool/release-4.10", custom)).toEqual({ version: "4.10", prerelease: false });
    expect(versionFromTag("release-x", custom)).toBeUndefined();
  });

  test("a release: drafts skipped, the release's own flag marks a pre-release, digests normalised", () => {
    const release = {
      tag_name: "v3.0.0",
      draft: false,
      prerelease: true,
      assets: [
        { name: "a", browser_download_url: "https://dl.example.com/a", digest: `sha256:${"AB".repeat(32)}` },
        { name: "b", browser_download_url: "https://other.example.com/b", digest: "sha1:abc" },
      ],
    };
    expect(isForgeRelease(release)).toBe(true);
    expect(
      releaseVersion(release, defaults, { from: "https://dl.example.com/", to: "https://m.example.org/" }),
    ).toEqual({
      version: "3.0.0",
      prerelease: true,
      tag: "v3.0.0",
      assets: [
        { name: "a", url: "https://m.example.org/a", digest: `sha256:${"ab".repeat(32)}` },
        { name: "b", url: "https://other.example.com/b" },
      ],
    });
    expect(releaseVersion({ ...release, draft: true }, defaults, undefined)).toBeUndefined();
    expect(isForgeRelease({ ...release, assets: [{ name: "a" }] })).toBe(false);
  });
});
