import { expect } from "vitest";
import { baseSpec, type ConformanceCase, spec } from "../support/spec-case.js";

const parent = spec({ cascade: false, tests: [{ name: "version", command: "tool --version" }] });

export const cases: ConformanceCase[] = [
  {
    rule: "extends: a shallow top-level merge, the child's keys replacing the parent's",
    files: { "base/mirror.base.yml": parent },
    yaml: "extends: base/mirror.base.yml\nname: child\ncascade: true\n",
    exit: 0,
    check: (s) =>
      expect(s).toMatchObject({
        name: "child",
        cascade: { enabled: true },
        target: baseSpec.target as object,
        tests: [{ name: "version", command: "tool --version" }],
      }),
  },
  {
    rule: "extends: a child's block replaces the parent's whole block (no deep merge)",
    files: { "base.yml": spec({ target: { registry: "ghcr.io", repository: "acme/base" } }) },
    yaml: "extends: base.yml\ntarget:\n  registry: quay.io\n  repository: acme/child\n",
    exit: 0,
    check: (s) => expect(s.target).toEqual({ registry: "quay.io", repository: "acme/child" }),
  },
  {
    rule: "extends: chains are followed",
    files: { "a.yml": "extends: b.yml\nname: from-a\n", "b.yml": spec({ name: "from-b" }) },
    yaml: "extends: a.yml\n",
    exit: 0,
    check: (s) => expect(s.name).toBe("from-a"),
  },
  {
    rule: "extends: a base above the repository root is a usage error",
    yaml: "extends: ../outside.yml\nname: tool\n",
    exit: 64,
    path: "extends",
    message: /outside the repository/,
  },
  {
    rule: "extends: a symlink inside the repository leading out of it is a usage error",
    files: { "../outside-of-the-repository/base.yml": parent },
    symlinks: { "base.yml": "../outside-of-the-repository/base.yml" },
    yaml: "extends: base.yml\nname: tool\n",
    exit: 64,
    path: "extends",
    message: /base\.yml leads through a symlink to .*outside-of-the-repository.*, outside the repository/,
  },
  {
    rule: "extends: a symlinked directory leading out of the repository is a usage error",
    files: { "../outside-of-the-repository/base.yml": parent },
    symlinks: { shared: "../outside-of-the-repository" },
    yaml: "extends: shared/base.yml\nname: tool\n",
    exit: 64,
    path: "extends",
    message: /leads through a symlink .* outside the repository/,
  },
  {
    rule: "extends: a symlink to a file inside the repository is followed",
    files: { "bases/real.yml": parent },
    symlinks: { "base.yml": "bases/real.yml" },
    yaml: "extends: base.yml\nname: child\n",
    exit: 0,
    check: (s) => expect(s).toMatchObject({ name: "child", cascade: { enabled: false } }),
  },
  {
    rule: "extends: a file whose name starts with two dots is inside the repository",
    files: { "..base.yml": parent },
    yaml: "extends: ..base.yml\nname: child\n",
    exit: 0,
    check: (s) => expect(s).toMatchObject({ name: "child", cascade: { enabled: false } }),
  },
  {
    rule: "extends: a cycle is refused",
    files: { "a.yml": "extends: mirror.yml\n" },
    yaml: `extends: a.yml\n${spec()}`,
    exit: 65,
    path: "extends",
    message: /cycle/,
  },
  {
    rule: "extends: a missing parent is refused",
    yaml: `extends: nowhere.yml\n${spec()}`,
    exit: 65,
    path: "extends",
    message: /no such file/,
  },
  {
    rule: "extends: a path string",
    yaml: `extends: [a.yml]\n${spec()}`,
    exit: 65,
    path: "extends",
    message: /expected a string/,
  },
  {
    rule: "extends: an unknown key in the parent is refused in the parent's file",
    files: { "base.yml": `${spec()}colour: blue\n` },
    yaml: "extends: base.yml\n",
    exit: 65,
    path: "colour",
    message: /unknown key "colour"/,
  },
  {
    rule: "extends: the merged spec still needs the required keys",
    files: { "base.yml": "name: tool\n" },
    yaml: "extends: base.yml\n",
    exit: 65,
    path: "",
    message: /missing required key "target"/,
  },
];
