import { ExitCode } from "@pkg/common";
import { describe, expect, it } from "vitest";
import type { UpstreamVersion } from "../sources/types.js";
import {
  type AssetResolution,
  type AssetSet,
  ambiguityError,
  assetSets,
  compileAssetSet,
  resolveAssets,
} from "./resolve-assets.js";

function release(...names: string[]): UpstreamVersion {
  return {
    version: "1.2.3",
    prerelease: false,
    assets: names.map((name) => ({ name, url: `https://dl.example/${name}` })),
  };
}

const cases: Array<{ rule: string; patterns: string[]; assets: string[]; want: AssetResolution }> = [
  {
    rule: "one regex, one match resolves to that asset",
    patterns: ["^tool-.*-linux-amd64\\.tar\\.gz$"],
    assets: ["tool-1.2.3-linux-amd64.tar.gz", "tool-1.2.3-linux-arm64.tar.gz"],
    want: {
      state: "resolved",
      asset: {
        name: "tool-1.2.3-linux-amd64.tar.gz",
        url: "https://dl.example/tool-1.2.3-linux-amd64.tar.gz",
      },
    },
  },
  {
    rule: "no match: the platform is absent for that version",
    patterns: ["linux-riscv64"],
    assets: ["tool-1.2.3-linux-amd64.tar.gz"],
    want: { state: "absent" },
  },
  {
    rule: "no assets at all: absent",
    patterns: ["linux-amd64"],
    assets: [],
    want: { state: "absent" },
  },
  {
    rule: "two assets matched by one regex: ambiguous, candidates in upstream order",
    patterns: ["linux-amd64"],
    assets: ["tool-linux-amd64.zip", "tool-linux-arm64.zip", "tool-linux-amd64.tar.gz"],
    want: { state: "ambiguous", candidates: ["tool-linux-amd64.zip", "tool-linux-amd64.tar.gz"] },
  },
  {
    rule: "several regexes matching the same asset are one match",
    patterns: ["linux-amd64", "^tool-linux", "\\.tar\\.gz$"],
    assets: ["tool-linux-amd64.tar.gz", "tool-darwin-arm64.zip"],
    want: {
      state: "resolved",
      asset: { name: "tool-linux-amd64.tar.gz", url: "https://dl.example/tool-linux-amd64.tar.gz" },
    },
  },
  {
    rule: "the list is pooled: a later regex matching another asset makes it ambiguous",
    patterns: ["x86_64-unknown-linux-gnu", "linux-amd64"],
    assets: ["tool-x86_64-unknown-linux-gnu.tgz", "tool-linux-amd64.tgz"],
    want: { state: "ambiguous", candidates: ["tool-x86_64-unknown-linux-gnu.tgz", "tool-linux-amd64.tgz"] },
  },
  {
    rule: "an earlier regex that matches nothing does not hide a later one",
    patterns: ["x86_64-unknown-linux-gnu", "linux-amd64"],
    assets: ["tool-linux-amd64.tgz"],
    want: {
      state: "resolved",
      asset: { name: "tool-linux-amd64.tgz", url: "https://dl.example/tool-linux-amd64.tgz" },
    },
  },
  {
    rule: "the same name listed twice upstream is one distinct match",
    patterns: ["linux-amd64"],
    assets: ["tool-linux-amd64.tgz", "tool-linux-amd64.tgz"],
    want: {
      state: "resolved",
      asset: { name: "tool-linux-amd64.tgz", url: "https://dl.example/tool-linux-amd64.tgz" },
    },
  },
  {
    rule: "RE2 syntax as users write it: (?i) and (?P<name>...)",
    patterns: ["(?i)^TOOL-(?P<v>[0-9.]+)-LINUX-AMD64"],
    assets: ["tool-1.2.3-linux-amd64.tgz", "tool-1.2.3-linux-amd64.tgz.sha256"],
    want: {
      state: "ambiguous",
      candidates: ["tool-1.2.3-linux-amd64.tgz", "tool-1.2.3-linux-amd64.tgz.sha256"],
    },
  },
  {
    rule: "an unanchored regex matches anywhere in the name; anchors make it exact",
    patterns: ["^tool-linux-amd64\\.tgz$"],
    assets: ["tool-linux-amd64.tgz", "tool-linux-amd64.tgz.sha256"],
    want: {
      state: "resolved",
      asset: { name: "tool-linux-amd64.tgz", url: "https://dl.example/tool-linux-amd64.tgz" },
    },
  },
];

describe("resolveAssets", () => {
  it.each(cases)("$rule", ({ patterns, assets, want }) => {
    const set = compileAssetSet({ label: "default", assets: { "linux/amd64": patterns } });
    expect(resolveAssets(release(...assets), set).get("linux/amd64")).toEqual(want);
  });

  it("resolves every platform of the set independently, keeping the declared digest", () => {
    const set = compileAssetSet({
      label: "default",
      assets: { "linux/amd64": ["linux-amd64"], "darwin/arm64": ["darwin"], "windows/amd64": ["windows"] },
    });
    const version: UpstreamVersion = {
      version: "2.0.0",
      prerelease: false,
      assets: [
        { name: "t-linux-amd64.tgz", url: "https://a/1", digest: `sha256:${"a".repeat(64)}` },
        { name: "t-darwin-arm64.tgz", url: "https://a/2" },
        { name: "t-darwin-amd64.tgz", url: "https://a/3" },
      ],
    };
    const result = resolveAssets(version, set);
    expect(Object.fromEntries([...result].map(([p, r]) => [p, r.state]))).toEqual({
      "linux/amd64": "resolved",
      "darwin/arm64": "ambiguous",
      "windows/amd64": "absent",
    });
    expect(result.get("linux/amd64")).toEqual({ state: "resolved", asset: version.assets[0] });
  });

  it("names version, platform and candidates in the ambiguity error (exit 65)", () => {
    const error = ambiguityError([
      { version: "1.2.3", platform: "linux/amd64", variant: "musl", candidates: ["a.tgz", "b.tgz"] },
      { version: "1.2.2", platform: "linux/amd64", variant: "musl", candidates: ["a.tgz", "b.tgz"] },
    ]);
    expect(error.exitCode).toBe(ExitCode.Data);
    expect(error.message).toBe(
      "ambiguous asset: version 1.2.3 platform linux/amd64 (variant musl): the assets regexes match 2 assets: a.tgz, b.tgz (and 1 more ambiguous pairs)",
    );
  });
});

describe("assetSets", () => {
  it("uses the top-level assets as the one unprefixed set", () => {
    expect(assetSets({ assets: { "linux/amd64": ["x"] } })).toEqual([
      { label: "default", assets: { "linux/amd64": ["x"] } },
    ]);
  });

  it("gives each variant its tag prefix; the default variant is unprefixed even when named", () => {
    const sets = assetSets({
      variants: [
        { name: "gnu", default: true, assets: { "linux/amd64": ["gnu"] } },
        { name: "musl", default: false, assets: { "linux/amd64+libc.musl": ["musl"] } },
      ],
    });
    expect(sets).toEqual([
      { label: "gnu", assets: { "linux/amd64": ["gnu"] } },
      { variant: "musl", label: "musl", assets: { "linux/amd64+libc.musl": ["musl"] } },
    ]);
  });
});

describe("a Python source's set", () => {
  const set = compileAssetSet(
    assetSets({
      source: { type: "pypi", package: "hello", indexes: [{ url: "https://index.example/simple/" }] },
      wheels: { "linux/amd64": ["any"], "linux/arm64+libc.musl": ["musllinux", "any"] },
    })[0] as AssetSet,
  );

  it("has one column per wheels key and no regexes", () => {
    expect(set.wheels).toBe(true);
    expect(set.platforms.map((p) => [p.platform, p.patterns.length])).toEqual([
      ["linux/amd64", 0],
      ["linux/arm64+libc.musl", 0],
    ]);
  });

  it("resolves every key to the app's first wheel, else its first file, else absent", () => {
    const sdist = { name: "hello-1.0.tar.gz", url: "https://f/1" };
    const wheel = {
      name: "hello-1.0-py3-none-any.whl",
      url: "https://f/2",
      digest: `sha256:${"b".repeat(64)}`,
    };
    const states = (assets: UpstreamVersion["assets"]) =>
      Object.fromEntries(resolveAssets({ version: "1.0", prerelease: false, assets }, set));
    expect(states([sdist, wheel])).toEqual({
      "linux/amd64": { state: "resolved", asset: wheel },
      "linux/arm64+libc.musl": { state: "resolved", asset: wheel },
    });
    expect(states([sdist])["linux/amd64"]).toEqual({ state: "resolved", asset: sdist });
    expect(states([])["linux/arm64+libc.musl"]).toEqual({ state: "absent" });
  });
});
