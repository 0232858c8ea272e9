import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, pythonSpec, spec } from "../support/spec-case.js";

const assets = (value: Fields) => spec({ assets: value });
const json = JSON.stringify({ type: "bundle", version: 1, env: [] });

/*
 * Platform keys name OCI values: os a GOOS, architecture a GOARCH, a variant only where the
 * architecture takes one (v5-v8 on arm, v8 on arm64). Checked wherever a platform key is a key.
 */
export const cases: ConformanceCase[] = [
  {
    rule: "platform key: every OCI (GOOS/GOARCH) os and architecture is accepted",
    yaml: assets({
      "linux/386": ["a"],
      "linux/loong64": ["b"],
      "linux/mips64le": ["c"],
      "linux/ppc64le": ["d"],
      "linux/riscv64": ["e"],
      "linux/s390x": ["f"],
      "aix/ppc64": ["g"],
      "freebsd/amd64": ["h"],
      "illumos/amd64": ["i"],
      "js/wasm": ["j"],
      "wasip1/wasm": ["k"],
      "openbsd/arm64": ["l"],
      "netbsd/arm": ["m"],
      "solaris/amd64": ["n"],
      "android/arm64": ["o"],
      "ios/arm64": ["p"],
      "dragonfly/amd64": ["q"],
    }),
    exit: 0,
    check: (s) => expect(Object.keys(s.assets as object)).toHaveLength(17),
  },
  {
    rule: "platform key: plan9 is a Go GOOS and stays valid",
    yaml: assets({ "plan9/amd64": ["tool-.*-plan9"] }),
    exit: 0,
    check: (s) => expect(s.assets).toEqual({ "plan9/amd64": ["tool-.*-plan9"] }),
  },
  {
    rule: "platform key: the arm variants v5 to v8 and arm64/v8 are accepted",
    yaml: assets({
      "linux/arm/v5": ["a"],
      "linux/arm/v6": ["b"],
      "linux/arm/v7": ["c"],
      "linux/arm/v8": ["d"],
      "linux/arm64/v8": ["e"],
      "linux/arm/v7+libc.musl": ["f"],
    }),
    exit: 0,
  },
  {
    rule: "platform key: an unknown os is refused with the key it probably means",
    yaml: assets({ "linx/amd64": ["tool-.*"] }),
    exit: 65,
    path: "assets.linx/amd64",
    message: /unknown os "linx".*did you mean linux\/amd64\?/,
  },
  {
    rule: "platform key: an unknown architecture is refused with the key it probably means",
    yaml: assets({ "linux/amd6": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/amd6",
    message: /unknown architecture "amd6".*did you mean linux\/amd64\?/,
  },
  {
    rule: "platform key: the suggestion keeps the libc tag",
    yaml: assets({ "linux/amd6+libc.musl": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/amd6+libc.musl",
    message: /did you mean linux\/amd64\+libc\.musl\?/,
  },
  {
    rule: "platform key: release-asset spellings point at the OCI value",
    yaml: assets({ "macos/aarch64": ["tool-.*"] }),
    exit: 65,
    path: "assets.macos/aarch64",
    message: /unknown os "macos", unknown architecture "aarch64".*did you mean darwin\/arm64\?/,
  },
  {
    rule: "platform key: armv7 as an architecture points at arm/v7",
    yaml: assets({ "linux/armv7": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/armv7",
    message: /did you mean linux\/arm\/v7\?/,
  },
  {
    rule: "platform key: a value nothing is near is refused without a guess",
    yaml: assets({ "beos/amd64": ["tool-.*"] }),
    exit: 65,
    path: "assets.beos/amd64",
    message:
      /^invalid platform key "beos\/amd64": unknown os "beos"; os and architecture are OCI \(GOOS\/GOARCH\) values$/,
  },
  {
    rule: "platform key: an architecture without variants takes none",
    yaml: assets({ "linux/amd64/v3": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/amd64/v3",
    message: /amd64 takes no CPU variant, not "v3".*did you mean linux\/amd64\?/,
  },
  {
    rule: "platform key: an arm variant outside v5-v8 is refused",
    yaml: assets({ "linux/arm/v9": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/arm/v9",
    message: /unknown arm variant "v9" \(known: v5, v6, v7, v8\)/,
  },
  {
    rule: "platform key: arm64 takes only v8",
    yaml: assets({ "linux/arm64/v7": ["tool-.*"] }),
    exit: 65,
    path: "assets.linux/arm64/v7",
    message: /unknown arm64 variant "v7" \(known: v8\)/,
  },
  {
    rule: "platform key: values checked under variants[].assets",
    yaml: spec({
      assets: undefined,
      variants: [
        { default: true, assets: { "linux/amd64": ["a"] } },
        { name: "x", assets: { "linux/amd6": ["b"] } },
      ],
    }),
    exit: 65,
    path: "variants.x.assets.linux/amd6",
    message: /did you mean linux\/amd64\?/,
  },
  {
    rule: "platform key: values checked under asset_type.platforms",
    yaml: spec({
      asset_type: {
        default: { type: "archive" },
        platforms: { "windwos/amd64": { type: "binary", name: "t.exe" } },
      },
    }),
    exit: 65,
    path: "asset_type.platforms.windwos/amd64",
    message: /did you mean windows\/amd64\?/,
  },
  {
    rule: "platform key: values checked under asset_type strip_components.platforms",
    yaml: spec({
      asset_type: { type: "archive", strip_components: { default: 1, platforms: { "darwn/arm64": 0 } } },
    }),
    exit: 65,
    path: "asset_type.strip_components.platforms.darwn/arm64",
    message: /did you mean darwin\/arm64\?/,
  },
  {
    rule: "platform key: values checked under metadata.platforms",
    yaml: spec({ metadata: { default: "metadata.json", platforms: { "linux/arm65": "metadata.json" } } }),
    files: { "metadata.json": json },
    exit: 65,
    path: "metadata.platforms.linux/arm65",
    message: /did you mean linux\/arm64\?/,
  },
  {
    rule: "platform key: values checked under platforms",
    yaml: spec({ platforms: { "linux/x86": { runner: "ubuntu-latest" } } }),
    exit: 65,
    path: "platforms.linux/x86",
    message: /unknown architecture "x86".*did you mean linux\/386\?/,
  },
  {
    rule: "platform key: values checked under wheels",
    yaml: pythonSpec({ wheels: { "linux/amd46": null, "linux/amd64": null } }),
    exit: 65,
    path: "wheels.linux/amd46",
    message: /unknown architecture "amd46"/,
  },
];
