import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, LOCK_FILE, pythonSpec, spec } from "../support/spec-case.js";

const json = JSON.stringify({ type: "bundle", version: 1 });
const metadata = (value: Fields[string]) => spec({ metadata: value });

export const cases: ConformanceCase[] = [
  {
    rule: "metadata: default and per-platform paths, relative to the spec's directory",
    yaml: metadata({ default: "metadata.json", platforms: { "windows/amd64": "meta/windows.json" } }),
    files: { "metadata.json": json, "meta/windows.json": json },
    exit: 0,
    check: (s) =>
      expect(s.metadata).toEqual({
        default: "metadata.json",
        platforms: { "windows/amd64": "meta/windows.json" },
      }),
  },
  {
    rule: "metadata: platforms is optional",
    yaml: metadata({ default: "metadata.json" }),
    files: { "metadata.json": json },
    exit: 0,
    check: (s) => expect(s.metadata).toEqual({ default: "metadata.json", platforms: {} }),
  },
  {
    rule: "metadata.default: required when metadata is present",
    yaml: metadata({ platforms: { "linux/amd64": "metadata.json" } }),
    files: { "metadata.json": json },
    exit: 65,
    path: "metadata",
    message: /missing required key "default"/,
  },
  {
    rule: "metadata.default: the file must exist at load",
    yaml: metadata({ default: "metadata.json" }),
    exit: 65,
    path: "metadata.default",
    message: /metadata file "metadata\.json" not found/,
  },
  {
    rule: "metadata.platforms: every path must exist at load",
    yaml: metadata({ default: "metadata.json", platforms: { "linux/arm64": "arm64.json" } }),
    files: { "metadata.json": json },
    exit: 65,
    path: "metadata.platforms.linux/arm64",
    message: /"arm64\.json" not found/,
  },
  {
    rule: "metadata.default: a directory is not a metadata file",
    yaml: metadata({ default: "meta" }),
    files: { "meta/metadata.json": json },
    exit: 65,
    path: "metadata.default",
    message: /not found/,
  },
  {
    rule: "metadata.default: a string",
    yaml: metadata({ default: ["metadata.json"] }),
    exit: 65,
    path: "metadata.default",
    message: /expected a string/,
  },
  {
    rule: "metadata.default: not empty",
    yaml: metadata({ default: "" }),
    exit: 65,
    path: "metadata.default",
    message: /must not be empty/,
  },
  {
    rule: "metadata: must be a mapping",
    yaml: metadata("metadata.json"),
    exit: 65,
    path: "metadata",
    message: /expected a mapping/,
  },
  {
    rule: "metadata: only default and platforms; a platform key beside default is unknown",
    yaml: metadata({ default: "metadata.json", "linux/amd64": "metadata.json" }),
    files: { "metadata.json": json },
    exit: 65,
    path: "metadata.linux/amd64",
    message: /unknown key "linux\/amd64"/,
  },
  {
    rule: "metadata: a near-miss key names the closest",
    yaml: metadata({ default: "metadata.json", platform: {} }),
    files: { "metadata.json": json },
    exit: 65,
    path: "metadata.platform",
    message: /did you mean "platforms"/,
  },
  {
    rule: "metadata.platforms: keys are platform keys",
    yaml: metadata({ default: "metadata.json", platforms: { windows: "metadata.json" } }),
    files: { "metadata.json": json },
    exit: 65,
    path: "metadata.platforms.windows",
    message: /invalid platform key "windows"/,
  },
  {
    rule: "metadata.platforms: libc-tagged keys are platform keys too",
    yaml: metadata({ default: "metadata.json", platforms: { "linux/amd64+libc.musl": "musl.json" } }),
    files: { "metadata.json": json, "musl.json": json },
    exit: 0,
    check: (s) => expect((s.metadata as Fields).platforms).toEqual({ "linux/amd64+libc.musl": "musl.json" }),
  },
  {
    rule: "metadata.platforms: must be a mapping",
    yaml: metadata({ default: "metadata.json", platforms: ["metadata.json"] }),
    files: { "metadata.json": json },
    exit: 65,
    path: "metadata.platforms",
    message: /expected a mapping/,
  },
  {
    rule: "metadata: rejected for pypi",
    yaml: pythonSpec({ metadata: { default: "metadata.json" } }),
    files: { "metadata.json": json },
    exit: 65,
    path: "metadata",
    message: /metadata is not supported for source type pypi/,
  },
  {
    rule: "metadata: rejected for pylock",
    yaml: pythonSpec({
      source: { type: "pylock", path: "pylock.toml" },
      metadata: { default: "metadata.json" },
    }),
    files: { "metadata.json": json, ...LOCK_FILE },
    exit: 65,
    path: "metadata",
    message: /metadata is not supported for source type pylock/,
  },
];
