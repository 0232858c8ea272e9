import { expect } from "vitest";
import { type AssetTypeSpec, assetTypeFor } from "../../src/spec/asset-type.js";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, pythonSpec, spec } from "../support/spec-case.js";

const assetType = (value: Fields[string]) => spec({ asset_type: value });
const model = (s: Record<string, unknown>) => s.asset_type as AssetTypeSpec;

export const cases: ConformanceCase[] = [
  {
    rule: "asset_type: defaults to archive with no component stripping",
    yaml: spec(),
    exit: 0,
    check: (s) => {
      expect(model(s)).toEqual({
        default: { type: "archive", strip_components: { default: 0, platforms: {} } },
        platforms: {},
      });
      expect(assetTypeFor(model(s), "linux/amd64")).toEqual({ type: "archive", strip_components: 0 });
    },
  },
  {
    rule: "asset_type: uniform archive with strip_components",
    yaml: assetType({ type: "archive", strip_components: 1 }),
    exit: 0,
    check: (s) =>
      expect(assetTypeFor(model(s), "darwin/arm64")).toEqual({ type: "archive", strip_components: 1 }),
  },
  {
    rule: "asset_type.strip_components: defaults to 0",
    yaml: assetType({ type: "archive" }),
    exit: 0,
    check: (s) =>
      expect(assetTypeFor(model(s), "linux/amd64")).toEqual({ type: "archive", strip_components: 0 }),
  },
  {
    rule: "asset_type: uniform binary with its name",
    yaml: assetType({ type: "binary", name: "tool" }),
    exit: 0,
    check: (s) => expect(model(s)).toEqual({ default: { type: "binary", name: "tool" }, platforms: {} }),
  },
  {
    rule: "asset_type.strip_components: {default, platforms} per platform",
    yaml: assetType({ type: "archive", strip_components: { default: 1, platforms: { "windows/amd64": 0 } } }),
    exit: 0,
    check: (s) => {
      expect(assetTypeFor(model(s), "linux/amd64")).toEqual({ type: "archive", strip_components: 1 });
      expect(assetTypeFor(model(s), "windows/amd64")).toEqual({ type: "archive", strip_components: 0 });
    },
  },
  {
    rule: "asset_type: per-platform form with a default and overrides",
    yaml: assetType({
      default: { type: "archive", strip_components: 1 },
      platforms: { "windows/amd64": { type: "binary", name: "tool.exe" } },
    }),
    exit: 0,
    check: (s) => {
      expect(assetTypeFor(model(s), "linux/amd64")).toEqual({ type: "archive", strip_components: 1 });
      expect(assetTypeFor(model(s), "windows/amd64")).toEqual({ type: "binary", name: "tool.exe" });
    },
  },
  {
    rule: "asset_type: per-platform default may use the strip_components object form",
    yaml: assetType({
      default: { type: "archive", strip_components: { default: 2, platforms: { "darwin/arm64": 3 } } },
    }),
    exit: 0,
    check: (s) =>
      expect(assetTypeFor(model(s), "darwin/arm64")).toEqual({ type: "archive", strip_components: 3 }),
  },
  {
    rule: "asset_type: must be a mapping",
    yaml: assetType("binary"),
    exit: 65,
    path: "asset_type",
    message: /expected a mapping/,
  },
  {
    rule: "asset_type.type: required in the uniform form",
    yaml: assetType({ strip_components: 1 }),
    exit: 65,
    path: "asset_type",
    message: /missing required key "type"/,
  },
  {
    rule: "asset_type.type: archive or binary",
    yaml: assetType({ type: "zip" }),
    exit: 65,
    path: "asset_type.type",
    message: /expected one of "archive", "binary"/,
  },
  {
    rule: "asset_type.type: a near miss names the closest value",
    yaml: assetType({ type: "binry", name: "tool" }),
    exit: 65,
    path: "asset_type.type",
    message: /did you mean "binary"/,
  },
  {
    rule: "asset_type.name: required for binary",
    yaml: assetType({ type: "binary" }),
    exit: 65,
    path: "asset_type",
    message: /missing required key "name"/,
  },
  {
    rule: "asset_type.name: a file name, not a path",
    yaml: assetType({ type: "binary", name: "bin/tool" }),
    exit: 65,
    path: "asset_type.name",
    message: /a file name/,
  },
  {
    rule: "asset_type.name: not a directory reference",
    yaml: assetType({ type: "binary", name: ".." }),
    exit: 65,
    path: "asset_type.name",
    message: /a file name/,
  },
  {
    rule: "asset_type.name: binary only",
    yaml: assetType({ type: "archive", name: "tool" }),
    exit: 65,
    path: "asset_type.name",
    message: /applies only to type: binary/,
  },
  {
    rule: "asset_type.strip_components: archive only",
    yaml: assetType({ type: "binary", name: "tool", strip_components: 1 }),
    exit: 65,
    path: "asset_type.strip_components",
    message: /applies only to type: archive/,
  },
  {
    rule: "asset_type.strip_components: not negative",
    yaml: assetType({ type: "archive", strip_components: -1 }),
    exit: 65,
    path: "asset_type.strip_components",
    message: /at least 0/,
  },
  {
    rule: "asset_type.strip_components: a whole number",
    yaml: assetType({ type: "archive", strip_components: "1" }),
    exit: 65,
    path: "asset_type.strip_components",
    message: /expected a whole number/,
  },
  {
    rule: "asset_type.strip_components: the object form needs default",
    yaml: assetType({ type: "archive", strip_components: { platforms: { "windows/amd64": 0 } } }),
    exit: 65,
    path: "asset_type.strip_components",
    message: /missing required key "default"/,
  },
  {
    rule: "asset_type.strip_components: unknown fields are denied (a platform key beside default)",
    yaml: assetType({ type: "archive", strip_components: { default: 1, "windows/amd64": 0 } }),
    exit: 65,
    path: "asset_type.strip_components.windows/amd64",
    message: /unknown key "windows\/amd64"/,
  },
  {
    rule: "asset_type.strip_components.platforms: keys are platform keys",
    yaml: assetType({ type: "archive", strip_components: { default: 1, platforms: { windows: 0 } } }),
    exit: 65,
    path: "asset_type.strip_components.platforms.windows",
    message: /invalid platform key/,
  },
  {
    rule: "asset_type.strip_components.platforms: values are whole numbers, 0 or more",
    yaml: assetType({
      type: "archive",
      strip_components: { default: 1, platforms: { "windows/amd64": -2 } },
    }),
    exit: 65,
    path: "asset_type.strip_components.platforms.windows/amd64",
    message: /at least 0/,
  },
  {
    rule: "asset_type: unknown fields are refused in the uniform form, naming the closest",
    yaml: assetType({ type: "archive", strip_component: 1 }),
    exit: 65,
    path: "asset_type.strip_component",
    message: /did you mean "strip_components"/,
  },
  {
    rule: "asset_type: a platform key in the uniform form points at platforms",
    yaml: assetType({ type: "archive", "windows/amd64": { type: "binary", name: "tool.exe" } }),
    exit: 65,
    path: "asset_type.windows/amd64",
    message: /is a platform key: per-platform asset types go under platforms/,
  },
  {
    rule: "asset_type: default is required in the per-platform form",
    yaml: assetType({ platforms: { "windows/amd64": { type: "binary", name: "tool.exe" } } }),
    exit: 65,
    path: "asset_type",
    message: /missing required key "default"/,
  },
  {
    rule: "asset_type: platform keys as siblings of default are a load failure",
    yaml: assetType({ default: { type: "archive" }, "windows/amd64": { type: "binary", name: "tool.exe" } }),
    exit: 65,
    path: "asset_type.windows/amd64",
    message: /platform keys go under platforms:, not beside default:/,
  },
  {
    rule: "asset_type: uniform fields beside default are unknown in the per-platform form",
    yaml: assetType({ default: { type: "archive" }, type: "binary" }),
    exit: 65,
    path: "asset_type.type",
    message: /unknown key "type"/,
  },
  {
    rule: "asset_type.default: type is checked there",
    yaml: assetType({ default: { strip_components: 1 } }),
    exit: 65,
    path: "asset_type.default",
    message: /missing required key "type"/,
  },
  {
    rule: "asset_type.default: unknown fields are denied",
    yaml: assetType({ default: { type: "archive", flatten: true } }),
    exit: 65,
    path: "asset_type.default.flatten",
    message: /unknown key "flatten"/,
  },
  {
    rule: "asset_type.platforms: keys must parse as platform keys",
    yaml: assetType({
      default: { type: "archive" },
      platforms: { windows: { type: "binary", name: "tool.exe" } },
    }),
    exit: 65,
    path: "asset_type.platforms.windows",
    message: /invalid platform key "windows"/,
  },
  {
    rule: "asset_type.platforms: type is checked in each entry",
    yaml: assetType({ default: { type: "archive" }, platforms: { "windows/amd64": { name: "tool.exe" } } }),
    exit: 65,
    path: "asset_type.platforms.windows/amd64",
    message: /missing required key "type"/,
  },
  {
    rule: "asset_type.platforms: unknown fields are denied in each entry",
    yaml: assetType({
      default: { type: "archive" },
      platforms: { "windows/amd64": { type: "binary", name: "t.exe", mode: 493 } },
    }),
    exit: 65,
    path: "asset_type.platforms.windows/amd64.mode",
    message: /unknown key "mode"/,
  },
  {
    rule: "asset_type.platforms: name is required for a binary entry",
    yaml: assetType({ default: { type: "archive" }, platforms: { "windows/amd64": { type: "binary" } } }),
    exit: 65,
    path: "asset_type.platforms.windows/amd64",
    message: /missing required key "name"/,
  },
  {
    rule: "asset_type.platforms: an entry's strip_components is a number (the entry is already per platform)",
    yaml: assetType({
      default: { type: "archive" },
      platforms: { "linux/amd64": { type: "archive", strip_components: { default: 1 } } },
    }),
    exit: 65,
    path: "asset_type.platforms.linux/amd64.strip_components",
    message: /expected a whole number/,
  },
  {
    rule: "asset_type.platforms: must be a mapping",
    yaml: assetType({ default: { type: "archive" }, platforms: [] }),
    exit: 65,
    path: "asset_type.platforms",
    message: /expected a mapping/,
  },
  {
    rule: "asset_type: unused by pypi; accepted and ignored with a warning",
    yaml: pythonSpec({ asset_type: { type: "binary", name: "x" } }),
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings).toContainEqual(
        expect.objectContaining({
          keyPath: "asset_type",
          message: expect.stringMatching(/ignored for source type pypi/),
        }),
      ),
  },
];
