import { expect } from "vitest";
import { type ConformanceCase, spec } from "../support/spec-case.js";

export const cases: ConformanceCase[] = [
  ...(["datetime", "date", "none"] as const).map(
    (mode): ConformanceCase => ({
      rule: `build_timestamp: ${mode}`,
      yaml: spec({ build_timestamp: mode, cascade: false }),
      exit: 0,
      check: (s) => expect(s.build_timestamp).toBe(mode),
    }),
  ),
  {
    rule: "build_timestamp: defaults to datetime",
    yaml: spec(),
    exit: 0,
    check: (s) => expect(s.build_timestamp).toBe("datetime"),
  },
  {
    rule: "build_timestamp: another word is refused, naming the closest value",
    yaml: spec({ build_timestamp: "Date" }),
    exit: 65,
    path: "build_timestamp",
    message: /did you mean "date"/,
  },
  {
    rule: "build_timestamp: not a boolean",
    yaml: spec({ build_timestamp: false }),
    exit: 65,
    path: "build_timestamp",
    message: /expected a string/,
  },
  {
    rule: "build_timestamp: not null",
    yaml: spec({ build_timestamp: null }),
    exit: 65,
    path: "build_timestamp",
  },
  {
    rule: "build_timestamp: none with cascade (default true) loads with a warning at build_timestamp",
    yaml: spec({ build_timestamp: "none" }),
    exit: 0,
    check: (_s, warnings) =>
      expect(warnings).toEqual([
        expect.objectContaining({ keyPath: "build_timestamp", message: expect.stringMatching(/untagged/) }),
      ]),
  },
  {
    rule: "build_timestamp: none with a cascade mapping (enabled) warns",
    yaml: spec({ build_timestamp: "none", cascade: { schedule: "0 4 * * *" } }),
    exit: 0,
    check: (_s, warnings) => expect(warnings.map((w) => w.keyPath)).toEqual(["build_timestamp"]),
  },
  {
    rule: "build_timestamp: none without cascade does not warn",
    yaml: spec({ build_timestamp: "none", cascade: false }),
    exit: 0,
    check: (_s, warnings) => expect(warnings).toEqual([]),
  },
  {
    rule: "build_timestamp: datetime with cascade does not warn",
    yaml: spec({ build_timestamp: "datetime", cascade: true }),
    exit: 0,
    check: (_s, warnings) => expect(warnings).toEqual([]),
  },
];
