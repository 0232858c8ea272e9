import { expect } from "vitest";
import { type ConformanceCase, spec } from "../support/spec-case.js";

const linux = { "linux/amd64": { runner: "ubuntu-latest" } };

export const cases: ConformanceCase[] = [
  {
    rule: "tests: a command entry is read as name and command",
    yaml: spec({ tests: [{ name: "version", command: "tool --version" }] }),
    exit: 0,
    check: (s) => expect(s.tests).toEqual([{ name: "version", command: "tool --version" }]),
  },
  {
    rule: "tests: script is kept as written and its file is not checked at load (generate ci does)",
    yaml: spec({ tests: [{ name: "smoke", script: "tests/smoke.star" }] }),
    exit: 0,
    check: (s) => expect(s.tests).toEqual([{ name: "smoke", script: "tests/smoke.star" }]),
  },
  {
    rule: "tests: script_inline may span several lines",
    yaml: spec({ tests: [{ name: "inline", script_inline: "x = 1\nexpect.ok(x == 1)\n" }] }),
    exit: 0,
    check: (s) => expect(s.tests).toEqual([{ name: "inline", script_inline: "x = 1\nexpect.ok(x == 1)\n" }]),
  },
  {
    rule: "tests: the three kinds mix in one list",
    yaml: spec({
      tests: [
        { name: "version", command: "tool --version" },
        { name: "smoke", script: "tests/smoke.star" },
        { name: "inline", script_inline: "expect.ok(True)" },
      ],
    }),
    exit: 0,
    check: (s) => expect((s.tests as unknown[]).length).toBe(3),
  },
  {
    rule: "tests: names take letters, digits, '_' and '-' after a leading letter",
    yaml: spec({ tests: [{ name: "Npm_version-2", command: "npm --version" }] }),
    exit: 0,
  },
  {
    rule: "tests: an empty list loads (at least one entry is required by generate ci, not at load)",
    yaml: spec({ tests: [] }),
    exit: 0,
    check: (s) => expect(s.tests).toEqual([]),
  },
  {
    rule: "tests: a name may repeat across lists (top-level and a platform's own)",
    yaml: spec({
      tests: [{ name: "version", command: "tool --version" }],
      platforms: {
        "linux/amd64": { runner: "ubuntu-latest", tests: [{ name: "version", command: "tool -V" }] },
      },
    }),
    exit: 0,
  },
  {
    rule: "tests: a command from a block scalar keeps one line (its final newline is dropped)",
    yaml: `${spec()}tests:\n  - name: version\n    command: |\n      tool --version\n`,
    exit: 0,
    check: (s) => expect(s.tests).toEqual([{ name: "version", command: "tool --version" }]),
  },
  {
    rule: "tests: an entry without command, script or script_inline is refused",
    yaml: spec({ tests: [{ name: "version" }] }),
    exit: 65,
    path: "tests[0]",
    message: /needs one of "command", "script", "script_inline"/,
  },
  {
    rule: "tests: command and script together are refused",
    yaml: spec({ tests: [{ name: "version", command: "tool --version", script: "t.star" }] }),
    exit: 65,
    path: "tests[0]",
    message: /takes only one of .*command and script/,
  },
  {
    rule: "tests: all three kinds together are refused",
    yaml: spec({ tests: [{ name: "v", command: "a", script: "b", script_inline: "c" }] }),
    exit: 65,
    path: "tests[0]",
    message: /takes only one of/,
  },
  {
    rule: "tests: the name is required",
    yaml: spec({ tests: [{ command: "tool --version" }] }),
    exit: 65,
    path: "tests[0]",
    message: /missing required key "name"/,
  },
  {
    rule: "tests: a name starting with a digit is refused",
    yaml: spec({ tests: [{ name: "1version", command: "tool --version" }] }),
    exit: 65,
    path: "tests[0].name",
    message: /is not a test name/,
  },
  {
    rule: "tests: a name with a space or a dot is refused",
    yaml: spec({ tests: [{ name: "tool.version check", command: "tool --version" }] }),
    exit: 65,
    path: "tests[0].name",
  },
  {
    rule: "tests: an empty name is refused",
    yaml: spec({ tests: [{ name: "", command: "tool --version" }] }),
    exit: 65,
    path: "tests[0].name",
  },
  {
    rule: "tests: a name used twice in one list is refused at the second",
    yaml: spec({
      tests: [
        { name: "version", command: "tool --version" },
        { name: "version", command: "tool -V" },
      ],
    }),
    exit: 65,
    path: "tests[1].name",
    message: /used twice/,
  },
  {
    rule: "tests: a name used twice in a platform's own list is refused",
    yaml: spec({
      platforms: {
        "linux/amd64": {
          runner: "ubuntu-latest",
          tests: [
            { name: "smoke", command: "a" },
            { name: "smoke", command: "b" },
          ],
        },
      },
    }),
    exit: 65,
    path: "platforms.linux/amd64.tests[1].name",
    message: /used twice/,
  },
  {
    rule: "tests: a multi-line command is refused (commands are single-line)",
    yaml: spec({ tests: [{ name: "version", command: "tool --version\ntool --help" }] }),
    exit: 65,
    path: "tests[0].command",
    message: /single line/,
  },
  {
    rule: "tests: an empty command is refused",
    yaml: spec({ tests: [{ name: "version", command: "  " }] }),
    exit: 65,
    path: "tests[0].command",
    message: /must not be empty/,
  },
  {
    rule: "tests: an empty script path is refused",
    yaml: spec({ tests: [{ name: "smoke", script: "" }] }),
    exit: 65,
    path: "tests[0].script",
  },
  {
    rule: "tests: a command that is not a string is refused",
    yaml: spec({ tests: [{ name: "version", command: ["tool", "--version"] }] }),
    exit: 65,
    path: "tests[0].command",
    message: /expected a string/,
  },
  {
    rule: "tests: an unknown key in an entry is refused",
    yaml: spec({ tests: [{ name: "version", command: "tool --version", timeout: 30 }] }),
    exit: 65,
    path: "tests[0].timeout",
    message: /unknown key "timeout"/,
  },
  {
    rule: "tests: a misspelt kind is refused naming the closest key",
    yaml: spec({ tests: [{ name: "version", command: "tool --version", scrip: "x.star" }] }),
    exit: 65,
    path: "tests[0].scrip",
    message: /did you mean "script"/,
  },
  {
    rule: "tests: must be a list",
    yaml: spec({ tests: { version: "tool --version" } }),
    exit: 65,
    path: "tests",
    message: /expected a list/,
  },
  {
    rule: "tests: an entry must be a mapping",
    yaml: spec({ tests: ["tool --version"] }),
    exit: 65,
    path: "tests[0]",
    message: /expected a mapping/,
  },
  {
    rule: "platforms.<p>.tests replaces the top-level list for that platform",
    yaml: spec({
      tests: [{ name: "version", command: "tool --version" }],
      platforms: {
        ...linux,
        "windows/amd64": { runner: "windows-latest", tests: [{ name: "v", command: "tool.exe -V" }] },
      },
    }),
    exit: 0,
    check: (s) => {
      const platforms = s.platforms as Record<string, { tests?: unknown }>;
      expect(platforms["windows/amd64"]?.tests).toEqual([{ name: "v", command: "tool.exe -V" }]);
      expect(platforms["linux/amd64"]?.tests).toBeUndefined();
    },
  },
];
