import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, LOCK_FILE, pythonSpec, spec } from "../support/spec-case.js";

const assets = (value: Fields | Fields[string]) => spec({ assets: value });
const urlIndex = { type: "url_index", url: "https://example.com/index.json" };

export const cases: ConformanceCase[] = [
  {
    rule: "assets: platform keys with variants and libc tags, each an ordered regex list",
    yaml: assets({
      "linux/amd64": ["tool-.*-linux-amd64\\.tar\\.gz", "tool-.*-linux-x86_64\\.tar\\.gz"],
      "linux/arm/v7": ["tool-.*-armv7\\.tar\\.gz"],
      "linux/amd64+libc.musl": ["tool-.*-musl\\.tar\\.gz"],
      "linux/amd64+libc.glibc": ["tool-.*-gnu\\.tar\\.gz"],
      "windows/amd64": ["(?i)tool-.*-WINDOWS\\.zip$"],
    }),
    exit: 0,
    check: (s) =>
      expect(s.assets).toEqual({
        "linux/amd64": ["tool-.*-linux-amd64\\.tar\\.gz", "tool-.*-linux-x86_64\\.tar\\.gz"],
        "linux/arm/v7": ["tool-.*-armv7\\.tar\\.gz"],
        "linux/amd64+libc.musl": ["tool-.*-musl\\.tar\\.gz"],
        "linux/amd64+libc.glibc": ["tool-.*-gnu\\.tar\\.gz"],
        "windows/amd64": ["(?i)tool-.*-WINDOWS\\.zip$"],
      }),
  },
  {
    rule: "assets: must be a mapping",
    yaml: assets(["tool-.*"]),
    exit: 65,
    path: "assets",
    message: /expected a mapping/,
  },
  {
    rule: "assets: at least one platform",
    yaml: assets({}),
    exit: 65,
    path: "assets",
    message: /at least one platform/,
  },
  {
    rule: "assets: a platform's list is not empty",
    yaml: assets({ "linux/amd64": [] }),
    exit: 65,
    path: "assets.linux/amd64",
    message: /at least one entry/,
  },
  {
    rule: "assets: a platform maps to a list, not a single regex",
    yaml: assets({ "linux/amd64": "tool-.*" }),
    exit: 65,
    path: "assets.linux/amd64",
    message: /expected a list/,
  },
  {
    rule: "assets: each regex compiles as RE2",
    yaml: assets({ "linux/amd64": ["tool-.*", "tool-[a-"] }),
    exit: 65,
    path: "assets.linux/amd64[1]",
    message: /invalid regular expression \(RE2 syntax\)/,
  },
  {
    rule: "assets: backreferences (not linear-time) are refused",
    yaml: assets({ "linux/amd64": ["(tool)-\\1"] }),
    exit: 65,
    path: "assets.linux/amd64[0]",
    message: /invalid regular expression/,
  },
  {
    rule: "assets: an empty regex would match anything",
    yaml: assets({ "linux/amd64": [""] }),
    exit: 65,
    path: "assets.linux/amd64[0]",
    message: /must not be empty/,
  },
  {
    rule: "assets: regexes are strings",
    yaml: assets({ "linux/amd64": [42] }),
    exit: 65,
    path: "assets.linux/amd64[0]",
    message: /expected a string/,
  },
  {
    rule: "platform key: <os>/<arch> at least",
    yaml: assets({ linux: ["tool-.*"] }),
    exit: 65,
    path: "assets.linux",
    message: /invalid platform key "linux"/,
  },
  {
    rule: "platform key: lowercase",
    yaml: assets({ "Linux/AMD64": ["tool-.*"] }),
    exit: 65,
    path: "assets.Linux/AMD64",
    message: /invalid platform key.*lowercase/,
  },
  {
    rule: "platform key: only glibc and musl flavors",
    yaml: assets({ "linux/amd64+libc.uclibc": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/amd64+libc.uclibc",
    message: /unknown libc flavor "uclibc"/,
  },
  {
    rule: "platform key: one libc per key",
    yaml: assets({ "linux/amd64+libc.glibc,libc.musl": ["tool-.*"] }),
    exit: 65,
    path: 'assets["linux/amd64+libc.glibc,libc.musl"]',
    message: /both glibc and musl/,
  },
  {
    rule: "platform key: a libc only on linux",
    yaml: assets({ "darwin/arm64+libc.glibc": ["tool-.*"] }),
    exit: 65,
    path: "assets.darwin/arm64+libc.glibc",
    message: /only declared on linux/,
  },
  {
    rule: "platform key: a libc is not a CPU variant",
    yaml: assets({ "linux/amd64/musl": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/amd64/musl",
    message: /libc, not a CPU variant/,
  },
  {
    rule: "platform key: something follows +",
    yaml: assets({ "linux/amd64+": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/amd64+",
    message: /nothing follows/,
  },
  {
    rule: "platform key: no other feature namespace",
    yaml: assets({ "linux/amd64+cpu.avx2": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/amd64+cpu.avx2",
    message: /unknown feature/,
  },
  {
    rule: "platform key: no spaces",
    yaml: assets({ "linux amd64": ["tool-.*"] }),
    exit: 65,
    path: 'assets["linux amd64"]',
    message: /invalid platform key/,
  },
  {
    rule: "assets: required (or variants) for forgeone_release",
    yaml: spec({ assets: undefined }),
    exit: 65,
    path: "",
    message: /source type forgeone_release needs "assets" \(or "variants"\)/,
  },
  {
    rule: "assets: required (or variants) for url_index",
    yaml: spec({ source: urlIndex, assets: undefined }),
    exit: 65,
    path: "",
    message: /source type url_index needs "assets"/,
  },
  {
    rule: "assets: url_index selects with assets",
    yaml: spec({ source: urlIndex }),
    exit: 0,
    check: (s) => expect(s.assets).toEqual({ "linux/amd64": ["tool-.*-linux-amd64\\.tar\\.gz"] }),
  },
  {
    rule: "assets: not together with variants",
    yaml: spec({ variants: [{ default: true, assets: { "linux/amd64": ["tool-.*"] } }] }),
    exit: 65,
    path: "variants",
    message: /give one of them, not both/,
  },
  {
    rule: "assets: unused by pypi; accepted and ignored with a warning",
    yaml: pythonSpec({ assets: { "linux/amd64": ["x"] } }),
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings).toContainEqual(
        expect.objectContaining({
          keyPath: "assets",
          message: expect.stringMatching(/ignored for source type pypi/),
        }),
      ),
  },
  {
    rule: "assets: unused by pylock; accepted and ignored with a warning",
    yaml: pythonSpec({ source: { type: "pylock", path: "pylock.toml" }, assets: { "linux/amd64": ["x"] } }),
    files: LOCK_FILE,
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings).toContainEqual(
        expect.objectContaining({
          keyPath: "assets",
          message: expect.stringMatching(/ignored for source type pylock/),
        }),
      ),
  },
  {
    rule: "assets: still checked when a Python source ignores it",
    yaml: pythonSpec({ assets: { linux: ["x"] } }),
    exit: 65,
    path: "assets.linux",
    message: /invalid platform key/,
  },
];
