import { expect } from "vitest";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const minimal = spec();

export const cases: ConformanceCase[] = [
  {
    rule: "top level: a minimal forgeone_release spec loads",
    yaml: minimal,
    exit: 0,
    check: (s) => expect(s).toMatchObject({ name: "tool", source: { type: "forgeone_release" } }),
  },
  {
    rule: "top level: an unknown key is a hard failure naming the closest known key",
    yaml: `${minimal}cascades: true\n`,
    exit: 65,
    path: "cascades",
    message: /unknown key "cascades" \(did you mean "cascade"\?\)/,
  },
  {
    rule: "top level: an unknown key far from every known key gets no suggestion",
    yaml: `${minimal}frobnicate: 1\n`,
    exit: 65,
    path: "frobnicate",
    message: /^unknown key "frobnicate"$/,
  },
  {
    rule: "name: required",
    yaml: spec({ name: undefined }),
    exit: 65,
    path: "",
    message: /missing required key "name"/,
  },
  {
    rule: "name: a non-empty string",
    yaml: spec({ name: "" }),
    exit: 65,
    path: "name",
    message: /must not be empty/,
  },
  {
    rule: "name: a number is not a name",
    yaml: spec({ name: 42 }),
    exit: 65,
    path: "name",
    message: /expected a string, found number 42/,
  },
  {
    rule: "source: required",
    yaml: spec({ source: undefined }),
    exit: 65,
    path: "",
    message: /missing required key "source"/,
  },
  {
    rule: "libc_lint: defaults to true",
    yaml: minimal,
    exit: 0,
    check: (s) => expect(s.libc_lint).toBe(true),
  },
  {
    rule: "libc_lint: false is kept",
    yaml: spec({ libc_lint: false }),
    exit: 0,
    check: (s) => expect(s.libc_lint).toBe(false),
  },
  {
    rule: "libc_lint: a boolean",
    yaml: spec({ libc_lint: "no" }),
    exit: 65,
    path: "libc_lint",
    message: /expected true or false/,
  },
  {
    rule: "skip_prereleases: defaults to false",
    yaml: minimal,
    exit: 0,
    check: (s) => expect(s.skip_prereleases).toBe(false),
  },
  {
    rule: "skip_prereleases: a boolean",
    yaml: spec({ skip_prereleases: "yes" }),
    exit: 65,
    path: "skip_prereleases",
    message: /expected true or false/,
  },
  {
    rule: "wheel_scope: defaults to pip-packages",
    yaml: minimal,
    exit: 0,
    check: (s) => expect(s.wheel_scope).toBe("pip-packages"),
  },
  {
    rule: "verify: absent, both digest policies are if_present",
    yaml: minimal,
    exit: 0,
    check: (s) =>
      expect(s.verify).toEqual({ github_asset_digest: "if_present", url_index_digest: "if_present" }),
  },
  {
    rule: "concurrency: absent, every default applies",
    yaml: minimal,
    exit: 0,
    check: (s) =>
      expect(s.concurrency).toMatchObject({
        max_downloads: 8,
        rate_limit_ms: 0,
        max_retries: 3,
        compression_threads: 0,
      }),
  },
  {
    rule: "asset_type: absent, archive with no component stripping",
    yaml: minimal,
    exit: 0,
    check: (s) =>
      expect(s.asset_type).toEqual({
        default: { type: "archive", strip_components: { default: 0, platforms: {} } },
        platforms: {},
      }),
  },
  {
    rule: "bin_scan: defaults to off",
    yaml: minimal,
    exit: 0,
    check: (s) => expect(s.bin_scan).toBe("off"),
  },
  {
    rule: "wheel_scope: a repository path prefix",
    yaml: spec({ wheel_scope: "mirror/pip" }),
    exit: 0,
    check: (s) => expect(s.wheel_scope).toBe("mirror/pip"),
  },
  {
    rule: "wheel_scope: upper case or spaces are not a repository path",
    yaml: spec({ wheel_scope: "Pip Packages" }),
    exit: 65,
    path: "wheel_scope",
    message: /not a repository path prefix/,
  },
  {
    rule: "document: an empty file is refused",
    yaml: "",
    exit: 65,
    path: "",
    message: /empty/,
  },
  {
    rule: "document: a list is not a spec",
    yaml: "- name: tool\n",
    exit: 65,
    path: "",
    message: /expected a mapping/,
  },
  {
    rule: "YAML: a syntax error is refused at its line and column",
    yaml: `${minimal}assets: [unclosed\n`,
    exit: 65,
    path: "",
  },
  {
    rule: "YAML: a duplicate key is refused, never silently overwritten",
    yaml: `${minimal}name: other\n`,
    exit: 65,
    path: "",
    message: /unique/i,
  },
  {
    rule: "YAML: anchors and aliases are followed",
    yaml: [
      "name: tool",
      "target: {registry: ghcr.io, repository: acme/tool}",
      "source: {type: forgeone_release, owner: acme, repo: tool}",
      "assets:",
      "  linux/amd64: &regexes ['tool-linux\\.tar\\.gz']",
      "  linux/arm64: *regexes",
      "",
    ].join("\n"),
    exit: 0,
    check: (s) => expect(Object.keys(s.assets as object)).toEqual(["linux/amd64", "linux/arm64"]),
  },
  {
    rule: "allow_manual_edits: a boolean for generate ci's drift guard",
    yaml: spec({ allow_manual_edits: true }),
    exit: 0,
    check: (s) => expect(s.allow_manual_edits).toBe(true),
  },
  {
    rule: "allow_manual_edits: anything but a boolean is refused",
    yaml: spec({ allow_manual_edits: "yes" }),
    exit: 65,
    path: "allow_manual_edits",
    message: /expected true or false/,
  },
];
