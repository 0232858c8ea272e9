import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, LOCK_FILE, pythonSpec, spec } from "../support/spec-case.js";

const assets = { "linux/amd64": ["tool-.*-linux-amd64\\.tar\\.gz"] };
const musl = { "linux/amd64+libc.musl": ["tool-.*-linux-musl\\.tar\\.gz"] };
const variants = (list: Fields[string]) => spec({ assets: undefined, variants: list });
const json = JSON.stringify({
  type: "bundle",
  version: 1,
  env: [{ key: "PATH", type: "path", value: `\${installPath}/bin` }],
});

export const cases: ConformanceCase[] = [
  {
    rule: "variants: an unnamed default and a named variant; default defaults to false",
    yaml: variants([
      { default: true, assets },
      { name: "musl", assets: musl },
    ]),
    exit: 0,
    check: (s) =>
      expect(s.variants).toEqual([
        { default: true, assets },
        { name: "musl", default: false, assets: musl },
      ]),
  },
  {
    rule: "variants: the default may carry a name",
    yaml: variants([
      { name: "gnu", default: true, assets },
      { name: "musl.static", assets: musl },
    ]),
    exit: 0,
    check: (s) => expect((s.variants as Fields[]).map((v) => v.name)).toEqual(["gnu", "musl.static"]),
  },
  {
    rule: "variants: per-variant overrides are kept; omitted ones stay unset (inherit the top level)",
    yaml: spec({
      assets: undefined,
      libc_lint: true,
      metadata: { default: "metadata.json" },
      variants: [
        { default: true, assets },
        {
          name: "musl",
          assets: musl,
          bin_scan: "auto",
          libc_lint: false,
          metadata: { default: "metadata.json" },
          asset_type: { type: "binary", name: "tool" },
        },
      ],
    }),
    files: { "metadata.json": json },
    exit: 0,
    check: (s) =>
      expect(s.variants).toEqual([
        { default: true, assets },
        {
          name: "musl",
          default: false,
          assets: musl,
          bin_scan: "auto",
          libc_lint: false,
          metadata: { default: "metadata.json", platforms: {} },
          asset_type: { default: { type: "binary", name: "tool" }, platforms: {} },
        },
      ]),
  },
  {
    rule: "libc_lint: defaults to true",
    yaml: spec(),
    exit: 0,
    check: (s) => expect(s.libc_lint).toBe(true),
  },
  {
    rule: "variants: usable with url_index",
    yaml: spec({
      source: { type: "url_index", url: "https://example.com/index.json" },
      assets: undefined,
      variants: [{ default: true, assets }],
    }),
    exit: 0,
    check: (s) => expect(s.variants).toEqual([{ default: true, assets }]),
  },
  {
    rule: "variants: at least one variant",
    yaml: variants([]),
    exit: 65,
    path: "variants",
    message: /at least one entry/,
  },
  {
    rule: "variants: a list",
    yaml: variants({ musl: { assets: musl } }),
    exit: 65,
    path: "variants",
    message: /expected a list/,
  },
  {
    rule: "variants: each entry a mapping",
    yaml: variants(["musl"]),
    exit: 65,
    path: "variants[0]",
    message: /expected a mapping/,
  },
  {
    rule: "variants.name: pattern ^[a-z][a-z0-9.]*$ (no uppercase)",
    yaml: variants([
      { default: true, assets },
      { name: "Musl", assets: musl },
    ]),
    exit: 65,
    path: "variants[1].name",
    message: /invalid variant name "Musl"/,
  },
  {
    rule: "variants.name: starts with a letter",
    yaml: variants([
      { default: true, assets },
      { name: "1musl", assets: musl },
    ]),
    exit: 65,
    path: "variants[1].name",
    message: /invalid variant name/,
  },
  {
    rule: "variants.name: no hyphen (it ends the tag prefix)",
    yaml: variants([
      { default: true, assets },
      { name: "musl-static", assets: musl },
    ]),
    exit: 65,
    path: "variants[1].name",
    message: /invalid variant name/,
  },
  {
    rule: "variants.name: latest is reserved",
    yaml: variants([
      { default: true, assets },
      { name: "latest", assets: musl },
    ]),
    exit: 65,
    path: "variants[1].name",
    message: /"latest" is reserved/,
  },
  {
    rule: "variants.name: a string",
    yaml: variants([
      { default: true, assets },
      { name: 7, assets: musl },
    ]),
    exit: 65,
    path: "variants[1].name",
    message: /expected a string/,
  },
  {
    rule: "variants: duplicate names are rejected",
    yaml: variants([
      { name: "musl", default: true, assets },
      { name: "musl", assets: musl },
    ]),
    exit: 65,
    path: "variants[1].name",
    message: /"musl" is given twice/,
  },
  {
    rule: "variants: exactly one default (none)",
    yaml: variants([
      { name: "gnu", assets },
      { name: "musl", assets: musl },
    ]),
    exit: 65,
    path: "variants",
    message: /exactly one variant must set default: true/,
  },
  {
    rule: "variants: exactly one default (two)",
    yaml: variants([
      { name: "gnu", default: true, assets },
      { name: "musl", default: true, assets: musl },
    ]),
    exit: 65,
    path: "variants.musl.default",
    message: /only one variant may set default: true; variants\.gnu already does/,
  },
  {
    rule: "variants: only the default may omit name",
    yaml: variants([{ default: true, assets }, { assets: musl }]),
    exit: 65,
    path: "variants[1]",
    message: /only the default variant may omit "name"/,
  },
  {
    rule: "variants: two unnamed variants are rejected",
    yaml: variants([
      { default: true, assets },
      { default: true, assets: musl },
    ]),
    exit: 65,
    path: "variants[1].default",
    message: /only one variant may set default: true/,
  },
  {
    rule: "variants: two unnamed non-default variants are rejected",
    yaml: variants([{ assets }, { assets: musl }]),
    exit: 65,
    path: "variants",
    message: /exactly one variant must set default: true/,
  },
  {
    rule: "variants.default: a boolean",
    yaml: variants([{ default: "yes", assets }]),
    exit: 65,
    path: "variants[0].default",
    message: /expected true or false/,
  },
  {
    rule: "variants: unknown keys are refused, under the variant's name",
    yaml: variants([
      { default: true, assets },
      { name: "musl", assets: musl, tag_prefix: "m" },
    ]),
    exit: 65,
    path: "variants.musl.tag_prefix",
    message: /unknown key "tag_prefix"/,
  },
  {
    rule: "variants: unknown keys on an unnamed default are named by position, with the closest key",
    yaml: variants([{ asset: assets, default: true }]),
    exit: 65,
    path: "variants[0].asset",
    message: /did you mean "assets"/,
  },
  {
    rule: "variants.assets: required",
    yaml: variants([{ default: true, assets }, { name: "musl" }]),
    exit: 65,
    path: "variants.musl",
    message: /missing required key "assets"/,
  },
  {
    rule: "variants.assets: checked like top-level assets",
    yaml: variants([
      { default: true, assets },
      { name: "musl", assets: { "linux/amd64+libc.musl": ["tool-(musl"] } },
    ]),
    exit: 65,
    path: "variants.musl.assets.linux/amd64+libc.musl[0]",
    message: /invalid regular expression/,
  },
  {
    rule: "variants.assets: platform keys checked",
    yaml: variants([
      { default: true, assets },
      { name: "musl", assets: { "linux/amd64/musl": ["x"] } },
    ]),
    exit: 65,
    path: "variants.musl.assets.linux/amd64/musl",
    message: /invalid platform key/,
  },
  {
    rule: "variants.asset_type: per-platform keys validated under variants.<name>.asset_type",
    yaml: variants([
      { default: true, assets },
      {
        name: "musl",
        assets: musl,
        asset_type: { default: { type: "archive" }, platforms: { linux: { type: "archive" } } },
      },
    ]),
    exit: 65,
    path: "variants.musl.asset_type.platforms.linux",
    message: /invalid platform key/,
  },
  {
    rule: "variants.asset_type: platform keys beside default refused there too",
    yaml: variants([
      { default: true, assets },
      {
        name: "musl",
        assets: musl,
        asset_type: { default: { type: "archive" }, "linux/amd64": { type: "archive" } },
      },
    ]),
    exit: 65,
    path: "variants.musl.asset_type.linux/amd64",
    message: /not beside default/,
  },
  {
    rule: "variants.bin_scan: one of off, auto, verify",
    yaml: variants([{ default: true, assets, bin_scan: "yes" }]),
    exit: 65,
    path: "variants[0].bin_scan",
    message: /expected one of "off", "auto", "verify"/,
  },
  {
    rule: "variants.libc_lint: a boolean",
    yaml: variants([{ name: "gnu", default: true, assets, libc_lint: "off" }]),
    exit: 65,
    path: "variants.gnu.libc_lint",
    message: /expected true or false/,
  },
  {
    rule: "variants.metadata: paths must exist",
    yaml: variants([
      { default: true, assets },
      { name: "musl", assets: musl, metadata: { default: "musl.json" } },
    ]),
    exit: 65,
    path: "variants.musl.metadata.default",
    message: /"musl\.json" not found/,
  },
  {
    rule: "variants: rejected for pypi",
    yaml: pythonSpec({ variants: [{ default: true, assets }] }),
    exit: 65,
    path: "variants",
    message: /variants is not supported for source type pypi/,
  },
  {
    rule: "variants: rejected for pylock",
    yaml: pythonSpec({
      source: { type: "pylock", path: "pylock.toml" },
      variants: [{ default: true, assets }],
    }),
    files: LOCK_FILE,
    exit: 65,
    path: "variants",
    message: /variants is not supported for source type pylock/,
  },
];
