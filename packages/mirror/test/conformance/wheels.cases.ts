import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, LOCK_FILE, pythonSpec, spec } from "../support/spec-case.js";

const leg = (runner = "ubuntu-latest") => ({ runner });
/** A pypi spec with these wheels and these platforms (default: linux/amd64). */
const wheels = (entries: Fields, platforms: Fields = { "linux/amd64": leg() }) =>
  pythonSpec({ wheels: entries, platforms });
const filterOf = (key: string) => (s: Record<string, unknown>) => (s.wheels as Record<string, unknown>)[key];

export const cases: ConformanceCase[] = [
  {
    rule: "wheels: a plain linux key defaults to [any]",
    yaml: wheels({ "linux/amd64": null }),
    exit: 0,
    check: (s) => expect(s.wheels).toEqual({ "linux/amd64": ["any"] }),
  },
  {
    rule: "wheels: a +libc.glibc key defaults to [manylinux, any]",
    yaml: wheels({ "linux/amd64+libc.glibc": null }),
    exit: 0,
    check: (s) => expect(filterOf("linux/amd64+libc.glibc")(s)).toEqual(["manylinux", "any"]),
  },
  {
    rule: "wheels: a +libc.musl key defaults to [musllinux, any]",
    yaml: wheels({ "linux/amd64+libc.musl": null }),
    exit: 0,
    check: (s) => expect(filterOf("linux/amd64+libc.musl")(s)).toEqual(["musllinux", "any"]),
  },
  {
    rule: "wheels: a darwin key defaults to [macosx, any]",
    yaml: wheels({ "darwin/arm64": null }, { "darwin/arm64": leg("macos-latest") }),
    exit: 0,
    check: (s) => expect(filterOf("darwin/arm64")(s)).toEqual(["macosx", "any"]),
  },
  {
    rule: "wheels: a windows key defaults to [win, any]",
    yaml: wheels({ "windows/amd64": null }, { "windows/amd64": leg("windows-latest") }),
    exit: 0,
    check: (s) => expect(filterOf("windows/amd64")(s)).toEqual(["win", "any"]),
  },
  {
    rule: "wheels: an omitted value is the default too",
    yaml: "name: app\ntarget: {registry: ocx.sh, repository: app}\nsource: {type: pypi}\npython: {version: '3.13.1', abi: cp313, interpreter_package: 'ocx.sh/python/cpython:3.13.1'}\nwheels:\n  linux/amd64:\nplatforms:\n  linux/amd64: {runner: ubuntu-latest}\n",
    exit: 0,
    check: (s) => expect(s.wheels).toEqual({ "linux/amd64": ["any"] }),
  },
  {
    rule: "wheels: an explicit filter keeps its order",
    yaml: wheels({ "linux/amd64+libc.glibc": ["manylinux_2_28", "manylinux2014", "any"] }),
    exit: 0,
    check: (s) =>
      expect(filterOf("linux/amd64+libc.glibc")(s)).toEqual(["manylinux_2_28", "manylinux2014", "any"]),
  },
  {
    rule: "wheels: two libc keys of one base are two entries",
    yaml: wheels({ "linux/amd64+libc.glibc": null, "linux/amd64+libc.musl": null }),
    exit: 0,
    check: (s) =>
      expect(Object.keys(s.wheels as object)).toEqual(["linux/amd64+libc.glibc", "linux/amd64+libc.musl"]),
  },
  {
    rule: "wheels: a +libc.musl key may list musllinux prefixes",
    yaml: wheels(
      { "linux/arm64+libc.musl": ["musllinux_1_2", "any"] },
      { "linux/arm64": leg("ubuntu-24.04-arm") },
    ),
    exit: 0,
    check: (s) => expect(filterOf("linux/arm64+libc.musl")(s)).toEqual(["musllinux_1_2", "any"]),
  },
  {
    rule: "wheels: must be a mapping",
    yaml: wheels(["linux/amd64"] as unknown as Fields),
    exit: 65,
    path: "wheels",
    message: /expected a mapping/,
  },
  {
    rule: "wheels: must name at least one platform",
    yaml: wheels({}),
    exit: 65,
    path: "wheels",
    message: /at least one platform/,
  },
  {
    rule: "wheels: a value is a list of prefixes, not a word",
    yaml: wheels({ "linux/amd64": "any" }),
    exit: 65,
    path: "wheels.linux/amd64",
    message: /expected a list/,
  },
  {
    rule: "wheels: an empty filter is refused",
    yaml: wheels({ "linux/amd64": [] }),
    exit: 65,
    path: "wheels.linux/amd64",
    message: /at least one entry/,
  },
  {
    rule: "wheels: a prefix is a platform-tag prefix",
    yaml: wheels({ "linux/amd64": ["Many-Linux"] }),
    exit: 65,
    path: "wheels.linux/amd64[0]",
    message: /platform-tag prefix/,
  },
  {
    rule: "wheels: a prefix is listed once",
    yaml: wheels({ "linux/amd64": ["any", "any"] }),
    exit: 65,
    path: "wheels.linux/amd64[1]",
    message: /listed twice/,
  },
  {
    rule: "wheels: one filter must not mix manylinux and musllinux",
    yaml: wheels({ "linux/amd64": ["manylinux_2_17", "musllinux_1_2"] }),
    exit: 65,
    path: "wheels.linux/amd64",
    message: /must not mix manylinux and musllinux/,
  },
  {
    rule: "wheels: a +libc.glibc key's filter must not select musl wheels",
    yaml: wheels({ "linux/amd64+libc.glibc": ["musllinux", "any"] }),
    exit: 65,
    path: "wheels.linux/amd64+libc.glibc",
    message: /declares glibc/,
  },
  {
    rule: "wheels: a +libc.musl key's filter must not select glibc wheels",
    yaml: wheels({ "linux/amd64+libc.musl": ["manylinux2014"] }),
    exit: 65,
    path: "wheels.linux/amd64+libc.musl",
    message: /declares musl/,
  },
  {
    rule: "wheels: keys carry no CPU variant",
    yaml: wheels({ "linux/arm/v7": null }, { "linux/arm": leg() }),
    exit: 65,
    path: "wheels.linux/arm/v7",
    message: /without a CPU variant/,
  },
  {
    rule: "wheels: a key is a platform key",
    yaml: wheels({ linux: null }),
    exit: 65,
    path: "wheels.linux",
    message: /invalid platform key/,
  },
  {
    rule: "wheels: only glibc and musl libc flavors",
    yaml: wheels({ "linux/amd64+libc.uclibc": null }),
    exit: 65,
    path: "wheels.linux/amd64+libc.uclibc",
    message: /unknown libc flavor/,
  },
  {
    rule: "wheels: at most one libc per key",
    yaml: wheels({ "linux/amd64+libc.glibc,libc.musl": null }),
    exit: 65,
    path: 'wheels["linux/amd64+libc.glibc,libc.musl"]',
    message: /both glibc and musl/,
  },
  {
    rule: "wheels: no feature namespace other than libc",
    yaml: wheels({ "linux/amd64+win32k": null }),
    exit: 65,
    path: "wheels.linux/amd64+win32k",
    message: /unknown feature/,
  },
  {
    rule: "wheels: a libc only on linux keys",
    yaml: wheels({ "darwin/arm64+libc.glibc": null }, { "darwin/arm64": leg("macos-latest") }),
    exit: 65,
    path: "wheels.darwin/arm64+libc.glibc",
    message: /only declared on linux/,
  },
  {
    rule: "wheels: an OS without a default filter must list its prefixes",
    yaml: wheels({ "freebsd/amd64": null }),
    exit: 65,
    path: "wheels.freebsd/amd64",
    message: /no default wheel filter/,
  },
  {
    rule: "wheels: required for pypi",
    yaml: pythonSpec({ wheels: undefined }),
    exit: 65,
    path: "",
    message: /missing required key "wheels"/,
  },
  {
    rule: "wheels: refused for forgeone_release",
    yaml: spec({ wheels: { "linux/amd64": null } }),
    exit: 65,
    path: "wheels",
    message: /only to pylock and pypi sources, not forgeone_release/,
  },
  {
    rule: "wheels: refused for url_index",
    yaml: spec({
      source: { type: "url_index", url: "https://example.com/index.json" },
      wheels: { "linux/amd64": null },
    }),
    exit: 65,
    path: "wheels",
    message: /not url_index/,
  },
  {
    rule: "wheels/platforms: without platforms nothing is cross-validated",
    yaml: pythonSpec({ platforms: undefined, wheels: { "linux/amd64": null, "linux/arm64": null } }),
    exit: 0,
    check: (s) => expect(Object.keys(s.wheels as object)).toEqual(["linux/amd64", "linux/arm64"]),
  },
  {
    rule: "wheels/platforms: every wheels key's base is declared under platforms",
    yaml: wheels({ "linux/amd64": null, "linux/arm64": null }),
    exit: 65,
    path: "wheels.linux/arm64",
    message: /linux\/arm64 is not declared under platforms/,
  },
  {
    rule: "wheels/platforms: a +libc key's base is what platforms declares",
    yaml: wheels({ "linux/arm64+libc.musl": null }),
    exit: 65,
    path: "wheels.linux/arm64+libc.musl",
    message: /linux\/arm64 is not declared/,
  },
  {
    rule: "wheels/platforms: every declared platform is covered by a wheels key",
    yaml: wheels({ "linux/amd64": null }, { "linux/amd64": leg(), "darwin/arm64": leg("macos-latest") }),
    exit: 65,
    path: "platforms.darwin/arm64",
    message: /has no wheels key/,
  },
  {
    rule: "wheels/platforms: platforms keys stay plain for Python sources",
    yaml: wheels({ "linux/amd64+libc.musl": null }, { "linux/amd64+libc.musl": leg() }),
    exit: 65,
    path: "platforms.linux/amd64+libc.musl",
    message: /stay plain/,
  },
  {
    rule: "wheels/platforms: the cross-validation holds for pylock too",
    yaml: pythonSpec({
      source: { type: "pylock", path: "pylock.toml" },
      wheels: { "linux/amd64": null },
      platforms: { "linux/arm64": leg("ubuntu-24.04-arm") },
    }),
    files: LOCK_FILE,
    exit: 65,
    path: "wheels.linux/amd64",
    message: /not declared under platforms/,
  },
  {
    rule: "wheels/platforms: five keys (two libc keys on one base) over four declared platforms",
    yaml: wheels(
      {
        "linux/amd64+libc.glibc": null,
        "linux/amd64+libc.musl": null,
        "linux/arm64": null,
        "darwin/arm64": null,
        "windows/amd64": ["win_amd64"],
      },
      {
        "linux/amd64": leg(),
        "linux/arm64": leg("ubuntu-24.04-arm"),
        "darwin/arm64": leg("macos-latest"),
        "windows/amd64": leg("windows-latest"),
      },
    ),
    exit: 0,
    check: (s) => expect(filterOf("windows/amd64")(s)).toEqual(["win_amd64"]),
  },
];
