import { expect } from "vitest";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const SHA = "0123456789abcdef0123456789abcdef01234567";

export const cases: ConformanceCase[] = [
  {
    rule: "pkg_mirror.rev: a 40-character lowercase hex SHA is kept",
    yaml: spec({ pkg_mirror: { rev: SHA } }),
    exit: 0,
    check: (s) => expect(s.pkg_mirror).toEqual({ rev: SHA }),
  },
  {
    rule: "pkg_mirror: rev is optional",
    yaml: spec({ pkg_mirror: {} }),
    exit: 0,
    check: (s) => expect(s.pkg_mirror).toEqual({}),
  },
  {
    rule: "pkg_mirror.rev: uppercase hex is refused",
    yaml: spec({ pkg_mirror: { rev: SHA.toUpperCase() } }),
    exit: 65,
    path: "pkg_mirror.rev",
    message: /40-character lowercase hex/,
  },
  {
    rule: "pkg_mirror.rev: a short SHA is refused",
    yaml: spec({ pkg_mirror: { rev: SHA.slice(0, 12) } }),
    exit: 65,
    path: "pkg_mirror.rev",
  },
  {
    rule: "pkg_mirror.rev: 41 characters are refused",
    yaml: spec({ pkg_mirror: { rev: `${SHA}0` } }),
    exit: 65,
    path: "pkg_mirror.rev",
  },
  {
    rule: "pkg_mirror.rev: a tag or branch name is refused",
    yaml: spec({ pkg_mirror: { rev: "v0.7.0" } }),
    exit: 65,
    path: "pkg_mirror.rev",
  },
  {
    rule: "pkg_mirror: an unknown key is refused (it pins nothing; there is no version field)",
    yaml: spec({ pkg_mirror: { rev: SHA, version: "0.7.0" } }),
    exit: 65,
    path: "pkg_mirror.version",
    message: /unknown key "version"/,
  },
  {
    rule: "pkg_mirror: must be a mapping",
    yaml: spec({ pkg_mirror: SHA }),
    exit: 65,
    path: "pkg_mirror",
    message: /expected a mapping/,
  },
];
