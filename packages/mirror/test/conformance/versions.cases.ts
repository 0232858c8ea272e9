import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, pythonSpec, spec } from "../support/spec-case.js";

const versions = (fields: Fields) => spec({ versions: fields });
const model = (s: Record<string, unknown>) => s.versions as Record<string, unknown>;

export const cases: ConformanceCase[] = [
  {
    rule: "versions: a bare min is inclusive, a bare max exclusive; backfill defaults to newest_first",
    yaml: versions({ min: "1.2.0", max: "2.0" }),
    exit: 0,
    check: (s) =>
      expect(s.versions).toEqual({
        min: { version: "1.2.0", inclusive: true },
        max: { version: "2.0", inclusive: false },
        backfill: "newest_first",
      }),
  },
  {
    rule: "versions: an empty mapping is an open window with no cap",
    yaml: versions({}),
    exit: 0,
    check: (s) => expect(s.versions).toEqual({ backfill: "newest_first" }),
  },
  {
    rule: "versions: must be a mapping",
    yaml: spec({ versions: "1.0" }),
    exit: 65,
    path: "versions",
    message: /expected a mapping/,
  },
  {
    rule: "versions: unknown keys are refused",
    yaml: versions({ maximum: "2.0" }),
    exit: 65,
    path: "versions.maximum",
    message: /unknown key "maximum"/,
  },
  {
    rule: "versions: per-platform holes belong in platforms, not here",
    yaml: versions({ exclude: [{ version: "1.0.1" }] }),
    exit: 65,
    path: "versions.exclude",
    message: /unknown key/,
  },
  {
    rule: "versions.min: object form with inclusive false",
    yaml: versions({ min: { version: "1.0", inclusive: false } }),
    exit: 0,
    check: (s) => expect(model(s).min).toEqual({ version: "1.0", inclusive: false }),
  },
  {
    rule: "versions.max: object form with inclusive true",
    yaml: versions({ max: { version: "3.1.4", inclusive: true } }),
    exit: 0,
    check: (s) => expect(model(s).max).toEqual({ version: "3.1.4", inclusive: true }),
  },
  {
    rule: "versions.min: inclusive has no default in the object form",
    yaml: versions({ min: { version: "1.0" } }),
    exit: 65,
    path: "versions.min",
    message: /missing required key "inclusive"/,
  },
  {
    rule: "versions.max: the object form needs version",
    yaml: versions({ max: { inclusive: true } }),
    exit: 65,
    path: "versions.max",
    message: /missing required key "version"/,
  },
  {
    rule: "versions.min: inclusive is a boolean",
    yaml: versions({ min: { version: "1.0", inclusive: "yes" } }),
    exit: 65,
    path: "versions.min.inclusive",
    message: /expected true or false/,
  },
  {
    rule: "versions.min: the object form's keys are version and inclusive",
    yaml: versions({ min: { url: "https://example.com/min", inclusive: true } }),
    exit: 65,
    path: "versions.min.url",
    message: /unknown key "url"/,
  },
  {
    rule: "versions.min: a bound is a string or a mapping",
    yaml: versions({ min: ["1.0"] }),
    exit: 65,
    path: "versions.min",
    message: /expected a string/,
  },
  {
    rule: "versions.min: a literal must parse as a version",
    yaml: versions({ min: "latest" }),
    exit: 65,
    path: "versions.min",
    message: /invalid version "latest"/,
  },
  {
    rule: "versions.max: a literal in the object form must parse too",
    yaml: versions({ max: { version: "2.x", inclusive: false } }),
    exit: 65,
    path: "versions.max.version",
    message: /invalid version/,
  },
  {
    rule: "versions.min: no tag prefix",
    yaml: versions({ min: "v1.2.3" }),
    exit: 65,
    path: "versions.min",
    message: /starts with "v"/,
  },
  {
    rule: "versions.min: no build suffix",
    yaml: versions({ min: "1.2.3_20240101" }),
    exit: 65,
    path: "versions.min",
    message: /build suffix/,
  },
  {
    rule: "versions.min: an unquoted number is refused with the quoting hint",
    yaml: versions({ min: 1.1 }),
    exit: 65,
    path: "versions.min",
    message: /quotes/,
  },
  {
    rule: "versions.min: pre-release literals of the package grammar",
    yaml: versions({ min: "1.2.3-beta.1" }),
    exit: 0,
    check: (s) => expect(model(s).min).toEqual({ version: "1.2.3-beta.1", inclusive: true }),
  },
  {
    rule: "versions.min: a PEP 440-only spelling is refused for a release source",
    yaml: versions({ min: "1.0rc1" }),
    exit: 65,
    path: "versions.min",
    message: /PEP 440 spelling/,
  },
  {
    rule: "versions.min: a PEP 440 literal is accepted for a pypi source",
    yaml: pythonSpec({ versions: { min: "1.0rc1", max: { version: "2.0.post1", inclusive: true } } }),
    exit: 0,
    check: (s) =>
      expect(s.versions).toEqual({
        min: { version: "1.0rc1", inclusive: true },
        max: { version: "2.0.post1", inclusive: true },
        backfill: "newest_first",
      }),
  },
  {
    rule: "versions.max: a pypi source's literal must be PEP 440",
    yaml: pythonSpec({ versions: { max: "1.2.3-foo" } }),
    exit: 65,
    path: "versions.max",
    message: /not a PEP 440 version/,
  },
  {
    rule: "versions.max.version.url: an https URL, kept and not fetched at load",
    yaml: versions({ max: { version: { url: "https://versions.example.invalid/max" }, inclusive: false } }),
    exit: 0,
    check: (s) =>
      expect(model(s).max).toEqual({
        version: { url: "https://versions.example.invalid/max" },
        inclusive: false,
      }),
  },
  {
    rule: "versions.max.version.url: plain http is refused",
    yaml: versions({ max: { version: { url: "http://example.com/max" }, inclusive: false } }),
    exit: 65,
    path: "versions.max.version.url",
    message: /https/,
  },
  {
    rule: "versions.min.version.url: userinfo is refused without echoing it",
    yaml: versions({
      min: { version: { url: "https://ci:hunter2-token@example.com/min" }, inclusive: true },
    }),
    exit: 65,
    path: "versions.min.version.url",
    message: /^(?!.*hunter2).*credentials/,
  },
  {
    rule: "versions.min.version.url: a URL, not a bare host",
    yaml: versions({ min: { version: { url: "example.com/min" }, inclusive: true } }),
    exit: 65,
    path: "versions.min.version.url",
    message: /http/,
  },
  {
    rule: "versions.min.version.generator: a command; timeout_seconds defaults to 60",
    yaml: versions({
      min: { version: { generator: { command: ["./oldest-supported.sh"] } }, inclusive: true },
    }),
    exit: 0,
    check: (s) =>
      expect(model(s).min).toEqual({
        version: { generator: { command: ["./oldest-supported.sh"], timeout_seconds: 60 } },
        inclusive: true,
      }),
  },
  {
    rule: "versions.max.version.generator: working_directory and timeout_seconds are kept",
    yaml: versions({
      max: {
        version: {
          generator: { command: ["node", "max.js"], working_directory: "scripts", timeout_seconds: 10 },
        },
        inclusive: false,
      },
    }),
    exit: 0,
    check: (s) =>
      expect(model(s).max).toEqual({
        version: {
          generator: { command: ["node", "max.js"], working_directory: "scripts", timeout_seconds: 10 },
        },
        inclusive: false,
      }),
  },
  {
    rule: "versions.min.version.generator: command is required",
    yaml: versions({ min: { version: { generator: { timeout_seconds: 5 } }, inclusive: true } }),
    exit: 65,
    path: "versions.min.version.generator",
    message: /missing required key "command"/,
  },
  {
    rule: "versions.min.version.generator: command is a non-empty list",
    yaml: versions({ min: { version: { generator: { command: [] } }, inclusive: true } }),
    exit: 65,
    path: "versions.min.version.generator.command",
    message: /at least one entry/,
  },
  {
    rule: "versions.min.version.generator: timeout_seconds at least 1",
    yaml: versions({
      min: { version: { generator: { command: ["x"], timeout_seconds: 0 } }, inclusive: true },
    }),
    exit: 65,
    path: "versions.min.version.generator.timeout_seconds",
    message: /at least 1/,
  },
  {
    rule: "versions.min.version.generator: unknown keys are refused",
    yaml: versions({ min: { version: { generator: { command: ["x"], timeout: 5 } }, inclusive: true } }),
    exit: 65,
    path: "versions.min.version.generator.timeout",
    message: /unknown key "timeout"/,
  },
  {
    rule: "versions.min.version.file: a path, not read at load",
    yaml: versions({ min: { version: { file: "MIN_VERSION" }, inclusive: true } }),
    exit: 0,
    check: (s) => expect(model(s).min).toEqual({ version: { file: "MIN_VERSION" }, inclusive: true }),
  },
  {
    rule: "versions.min.version.file: not empty",
    yaml: versions({ min: { version: { file: "" }, inclusive: true } }),
    exit: 65,
    path: "versions.min.version.file",
    message: /must not be empty/,
  },
  {
    rule: "versions.min.version: exactly one of url, generator, file (two given)",
    yaml: versions({ min: { version: { url: "https://example.com/v", file: "V" }, inclusive: true } }),
    exit: 65,
    path: "versions.min.version",
    message: /takes only one of/,
  },
  {
    rule: "versions.min.version: exactly one of url, generator, file (none given)",
    yaml: versions({ min: { version: {}, inclusive: true } }),
    exit: 65,
    path: "versions.min.version",
    message: /needs one of/,
  },
  {
    rule: "versions.min.version: unknown forms are refused",
    yaml: versions({ min: { version: { path: "V" }, inclusive: true } }),
    exit: 65,
    path: "versions.min.version.path",
    message: /unknown key "path"/,
  },
  {
    rule: "versions.new_per_run: a cap on new versions per run",
    yaml: versions({ new_per_run: 3 }),
    exit: 0,
    check: (s) => expect(model(s).new_per_run).toBe(3),
  },
  {
    rule: "versions.new_per_run: at least 1",
    yaml: versions({ new_per_run: 0 }),
    exit: 65,
    path: "versions.new_per_run",
    message: /at least 1/,
  },
  {
    rule: "versions.new_per_run: a whole number",
    yaml: versions({ new_per_run: "3" }),
    exit: 65,
    path: "versions.new_per_run",
    message: /whole number/,
  },
  {
    rule: "versions.backfill: oldest_first",
    yaml: versions({ backfill: "oldest_first", new_per_run: 2 }),
    exit: 0,
    check: (s) => expect(model(s).backfill).toBe("oldest_first"),
  },
  {
    rule: "versions.backfill: newest_first or oldest_first only",
    yaml: versions({ backfill: "newest-first" }),
    exit: 65,
    path: "versions.backfill",
    message: /did you mean "newest_first"/,
  },
  {
    rule: "versions.poll_interval: a cron kept verbatim",
    yaml: versions({ poll_interval: "17 */6 * * *" }),
    exit: 0,
    check: (s) => expect(model(s).poll_interval).toBe("17 */6 * * *"),
  },
  {
    rule: "versions.poll_interval: the cron charset",
    yaml: versions({ poll_interval: "0 3 * * 1#2" }),
    exit: 65,
    path: "versions.poll_interval",
    message: /holds "#"/,
  },
  {
    rule: "versions.poll_interval: not empty",
    yaml: versions({ poll_interval: "" }),
    exit: 65,
    path: "versions.poll_interval",
    message: /must not be empty/,
  },
  // an empty window loads (the spec is not wrong, only useless) with a warning naming both values
  {
    rule: "versions: min above max (both literals) loads with a warning that the window is empty",
    yaml: versions({ min: "2.0.0", max: "1.5" }),
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings).toContainEqual(
        expect.objectContaining({
          keyPath: "versions.min",
          message: expect.stringMatching(/"2\.0\.0".*"1\.5".*min is above max.*window is empty/),
        }),
      ),
  },
  {
    rule: "versions: equal literals with the bare (exclusive) max leave an empty window: a warning",
    yaml: versions({ min: "1.2.0", max: "1.2.0" }),
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings).toContainEqual(
        expect.objectContaining({
          keyPath: "versions.min",
          message: expect.stringMatching(
            /"1\.2\.0".*"1\.2\.0" are equal and max is exclusive.*window is empty/,
          ),
        }),
      ),
  },
  {
    rule: "versions: equal literals with an exclusive min are empty too",
    yaml: versions({
      min: { version: "1.2.0", inclusive: false },
      max: { version: "1.2.0", inclusive: true },
    }),
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/min is exclusive.*empty/)),
  },
  {
    rule: "versions: equal literals with both edges inclusive hold that one version: no warning",
    yaml: versions({ min: "1.2.0", max: { version: "1.2.0", inclusive: true } }),
    exit: 0,
    check: (_s, warnings) => expect(warnings).toEqual([]),
  },
  {
    rule: "versions: min below max in number order (1.9 < 1.10): no warning",
    yaml: versions({ min: "1.9", max: "1.10" }),
    exit: 0,
    check: (_s, warnings) => expect(warnings).toEqual([]),
  },
  {
    rule: "versions: a Python app's bounds compare as PEP 440 (2.0 above 2.0rc1): a warning",
    yaml: pythonSpec({ versions: { min: "2.0", max: "2.0rc1" } }),
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/min is above max/)),
  },
  {
    rule: "versions: a bound resolved at run time is not compared at load",
    yaml: versions({ min: { version: { url: "https://example.com/min" }, inclusive: true }, max: "1.0" }),
    exit: 0,
    check: (_s, warnings) => expect(warnings).toEqual([]),
  },
];
