import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const cascade = (value: Fields[string]) => spec({ cascade: value });

export const cases: ConformanceCase[] = [
  {
    rule: "cascade: true",
    yaml: cascade(true),
    exit: 0,
    check: (s) => expect(s.cascade).toEqual({ enabled: true }),
  },
  {
    rule: "cascade: false publishes exact version tags only",
    yaml: cascade(false),
    exit: 0,
    check: (s) => expect(s.cascade).toEqual({ enabled: false }),
  },
  {
    rule: "cascade: defaults to true",
    yaml: spec(),
    exit: 0,
    check: (s) => expect(s.cascade).toEqual({ enabled: true }),
  },
  {
    rule: "cascade: an empty mapping equals true",
    yaml: cascade({}),
    exit: 0,
    check: (s) => expect(s.cascade).toEqual({ enabled: true }),
  },
  {
    rule: "cascade.schedule: a mapping with a schedule is enabled, the cron kept verbatim",
    yaml: cascade({ schedule: "0  3 * * 1" }),
    exit: 0,
    check: (s) => expect(s.cascade).toEqual({ enabled: true, schedule: "0  3 * * 1" }),
  },
  {
    rule: "cascade.schedule: names, ranges, lists and steps are in the charset",
    yaml: cascade({ schedule: "*/15 2-4 1,15 JAN-DEC mon-fri" }),
    exit: 0,
    check: (s) => expect((s.cascade as Fields).schedule).toBe("*/15 2-4 1,15 JAN-DEC mon-fri"),
  },
  {
    rule: "cascade.schedule: empty is refused",
    yaml: cascade({ schedule: "" }),
    exit: 65,
    path: "cascade.schedule",
    message: /must not be empty/,
  },
  {
    rule: "cascade.schedule: blank is empty",
    yaml: cascade({ schedule: "   " }),
    exit: 65,
    path: "cascade.schedule",
    message: /must not be empty/,
  },
  {
    rule: "cascade.schedule: a character outside the charset is refused",
    yaml: cascade({ schedule: "0 3 * * ?" }),
    exit: 65,
    path: "cascade.schedule",
    message: /holds "\?"/,
  },
  {
    rule: "cascade.schedule: macros are refused (@ is outside the charset)",
    yaml: cascade({ schedule: "@daily" }),
    exit: 65,
    path: "cascade.schedule",
    message: /holds "@"/,
  },
  {
    rule: "cascade.schedule: a tab is not a space",
    yaml: cascade({ schedule: "0\t3 * * *" }),
    exit: 65,
    path: "cascade.schedule",
    message: /holds "\\t"/,
  },
  {
    rule: "cascade.schedule: a string, not a number",
    yaml: cascade({ schedule: 5 }),
    exit: 65,
    path: "cascade.schedule",
    message: /expected a string/,
  },
  {
    rule: "cascade: the mapping's only key is schedule",
    yaml: cascade({ scheduel: "0 3 * * *" }),
    exit: 65,
    path: "cascade.scheduel",
    message: /did you mean "schedule"/,
  },
  {
    rule: "cascade: a word is neither a boolean nor a mapping",
    yaml: cascade("weekly"),
    exit: 65,
    path: "cascade",
    message: /expected true, false or a mapping/,
  },
  {
    rule: "cascade: null is refused",
    yaml: cascade(null),
    exit: 65,
    path: "cascade",
    message: /expected true, false or a mapping/,
  },
  {
    rule: "cascade.schedule: must not equal versions.poll_interval",
    yaml: spec({ cascade: { schedule: "0 3 * * *" }, versions: { poll_interval: "0 3 * * *" } }),
    exit: 65,
    path: "cascade.schedule",
    message: /equals versions.poll_interval/,
  },
  {
    rule: "cascade.schedule: equal up to spacing is still equal to versions.poll_interval",
    yaml: spec({ versions: { poll_interval: "0 3 * * *" }, cascade: { schedule: " 0 3  * * *" } }),
    exit: 65,
    path: "cascade.schedule",
    message: /equals versions.poll_interval/,
  },
  {
    rule: "cascade.schedule: a different schedule beside versions.poll_interval",
    yaml: spec({ cascade: { schedule: "30 3 * * *" }, versions: { poll_interval: "0 3 * * *" } }),
    exit: 0,
    check: (s) => expect((s.cascade as Fields).schedule).toBe("30 3 * * *"),
  },
];
