import { expect } from "vitest";
import type { Fields } from "../support/spec-case.js";
import { basePythonSpec, type ConformanceCase, LOCK_FILE, pythonSpec, spec } from "../support/spec-case.js";

const python = basePythonSpec.python as Fields;
const withPython = (fields: Fields) => pythonSpec({ python: { ...python, ...fields } });
const without = (key: string) =>
  pythonSpec({ python: Object.fromEntries(Object.entries(python).filter(([k]) => k !== key)) });
const pylock = (fields: Fields = {}) =>
  pythonSpec({ source: { type: "pylock", path: "pylock.toml" }, python: { ...python, ...fields } });

export const cases: ConformanceCase[] = [
  {
    rule: "python: a pypi spec with version, abi and interpreter_package loads, lock and entrypoints defaulted",
    yaml: pythonSpec(),
    exit: 0,
    check: (s) =>
      expect(s.python).toEqual({
        version: "3.13.1",
        abi: "cp313",
        interpreter_package: "ocx.sh/python/cpython:3.13.1",
        lock: { universal: true, extras: [], exclude: [], timeout_seconds: 300 },
        entrypoints: "auto",
      }),
  },
  {
    rule: "python: must be a mapping",
    yaml: pythonSpec({ python: "3.13" }),
    exit: 65,
    path: "python",
    message: /expected a mapping/,
  },
  {
    rule: "python: unknown keys are refused, naming the closest known key",
    yaml: withPython({ interpeter_package: "x" }),
    exit: 65,
    path: "python.interpeter_package",
    message: /did you mean "interpreter_package"/,
  },
  {
    rule: "python.version: required",
    yaml: without("version"),
    exit: 65,
    path: "python",
    message: /missing required key "version"/,
  },
  {
    rule: "python.version: a Python version such as 3.13.1",
    yaml: withPython({ version: "three" }),
    exit: 65,
    path: "python.version",
    message: /Python version/,
  },
  {
    rule: "python.version: major.minor and pre-release interpreters are versions",
    yaml: withPython({ version: "3.14.0rc1" }),
    exit: 0,
    check: (s) => expect((s.python as Fields).version).toBe("3.14.0rc1"),
  },
  {
    rule: "python.version: an unquoted number is not a string",
    yaml: withPython({ version: 3.13 }),
    exit: 65,
    path: "python.version",
    message: /expected a string/,
  },
  {
    rule: "python.abi: required",
    yaml: without("abi"),
    exit: 65,
    path: "python",
    message: /missing required key "abi"/,
  },
  {
    rule: "python.abi: an ABI tag in lowercase letters, digits and underscores",
    yaml: withPython({ abi: "CP313" }),
    exit: 65,
    path: "python.abi",
    message: /ABI tag/,
  },
  {
    rule: "python.abi: a free-threaded ABI tag is accepted",
    yaml: withPython({ abi: "cp313t" }),
    exit: 0,
    check: (s) => expect((s.python as Fields).abi).toBe("cp313t"),
  },
  {
    rule: "python.abi: abi3 and none are wheel tags, not an interpreter's ABI",
    yaml: withPython({ abi: "abi3" }),
    exit: 65,
    path: "python.abi",
    message: /not an interpreter ABI/,
  },
  {
    rule: "python.interpreter_package: required",
    yaml: without("interpreter_package"),
    exit: 65,
    path: "python",
    message: /missing required key "interpreter_package"/,
  },
  {
    rule: "python.interpreter_package: a package reference with its registry",
    yaml: withPython({ interpreter_package: "python/cpython:3.13.1" }),
    exit: 65,
    path: "python.interpreter_package",
    message: /registry/,
  },
  {
    rule: "python.interpreter_package: names a tag or a digest",
    yaml: withPython({ interpreter_package: "ocx.sh/python/cpython" }),
    exit: 65,
    path: "python.interpreter_package",
    message: /no tag or digest/,
  },
  {
    rule: "python.interpreter_package: a digest reference is accepted",
    yaml: withPython({ interpreter_package: `ocx.sh/python/cpython@sha256:${"a".repeat(64)}` }),
    exit: 0,
    check: (s) =>
      expect((s.python as Fields).interpreter_package).toBe(`ocx.sh/python/cpython@sha256:${"a".repeat(64)}`),
  },
  {
    rule: "python.lock: every field given is kept",
    yaml: withPython({
      lock: { universal: false, extras: ["cli", "fast_io"], exclude: ["pywin32"], timeout_seconds: 900 },
    }),
    exit: 0,
    check: (s) =>
      expect((s.python as Fields).lock).toEqual({
        universal: false,
        extras: ["cli", "fast_io"],
        exclude: ["pywin32"],
        timeout_seconds: 900,
      }),
  },
  {
    rule: "python.lock: an empty mapping takes every default",
    yaml: withPython({ lock: {} }),
    exit: 0,
    check: (s) =>
      expect((s.python as Fields).lock).toEqual({
        universal: true,
        extras: [],
        exclude: [],
        timeout_seconds: 300,
      }),
  },
  {
    rule: "python.lock: a field given alone leaves the others at their defaults",
    yaml: withPython({ lock: { extras: ["cli"] } }),
    exit: 0,
    check: (s) =>
      expect((s.python as Fields).lock).toEqual({
        universal: true,
        extras: ["cli"],
        exclude: [],
        timeout_seconds: 300,
      }),
  },
  {
    rule: "python.lock: unknown keys are refused",
    yaml: withPython({ lock: { universe: true } }),
    exit: 65,
    path: "python.lock.universe",
    message: /unknown key "universe" \(did you mean "universal"\?\)/,
  },
  {
    rule: "python.lock: must be a mapping",
    yaml: withPython({ lock: true }),
    exit: 65,
    path: "python.lock",
    message: /expected a mapping/,
  },
  {
    rule: "python.lock.universal: a boolean",
    yaml: withPython({ lock: { universal: "yes" } }),
    exit: 65,
    path: "python.lock.universal",
    message: /expected true or false/,
  },
  {
    rule: "python.lock.extras: a list",
    yaml: withPython({ lock: { extras: "cli" } }),
    exit: 65,
    path: "python.lock.extras",
    message: /expected a list/,
  },
  {
    rule: "python.lock.extras: each a PEP 508 extra name",
    yaml: withPython({ lock: { extras: ["-cli"] } }),
    exit: 65,
    path: "python.lock.extras[0]",
    message: /extra name/,
  },
  {
    rule: "python.lock.extras: each name once",
    yaml: withPython({ lock: { extras: ["cli", "cli"] } }),
    exit: 65,
    path: "python.lock.extras[1]",
    message: /listed twice/,
  },
  {
    rule: "python.lock.exclude: each a PEP 508 distribution name",
    yaml: withPython({ lock: { exclude: ["bad name"] } }),
    exit: 65,
    path: "python.lock.exclude[0]",
  },
  {
    rule: "python.lock.timeout_seconds: a whole number of at least 1",
    yaml: withPython({ lock: { timeout_seconds: 0 } }),
    exit: 65,
    path: "python.lock.timeout_seconds",
    message: /at least 1/,
  },
  {
    rule: "python.lock.timeout_seconds: not a string",
    yaml: withPython({ lock: { timeout_seconds: "300s" } }),
    exit: 65,
    path: "python.lock.timeout_seconds",
    message: /whole number/,
  },
  {
    rule: "python.lock: refused for pylock, naming pypi",
    yaml: pylock({ lock: { extras: ["cli"] } }),
    files: LOCK_FILE,
    exit: 65,
    path: "python.lock",
    message: /only supported for pypi/,
  },
  {
    rule: "python: a pylock spec without lock loads",
    yaml: pylock(),
    files: LOCK_FILE,
    exit: 0,
    check: (s) => expect((s.source as Fields).type).toBe("pylock"),
  },
  {
    rule: "python.entrypoints: all",
    yaml: withPython({ entrypoints: "all" }),
    exit: 0,
    check: (s) => expect((s.python as Fields).entrypoints).toBe("all"),
  },
  {
    rule: "python.entrypoints: auto written out",
    yaml: withPython({ entrypoints: "auto" }),
    exit: 0,
    check: (s) => expect((s.python as Fields).entrypoints).toBe("auto"),
  },
  {
    rule: "python.entrypoints: another word is refused",
    yaml: withPython({ entrypoints: "alll" }),
    exit: 65,
    path: "python.entrypoints",
    message: /did you mean "all"/,
  },
  {
    rule: "python.entrypoints: a list of names with optional PEP 440 bounds",
    yaml: withPython({
      entrypoints: [
        { name: "pycowsay" },
        { name: "cowthink", min_version: "0.0.0.2", max_version: "1.0rc1" },
      ],
    }),
    exit: 0,
    check: (s) =>
      expect((s.python as Fields).entrypoints).toEqual([
        { name: "pycowsay" },
        { name: "cowthink", min_version: "0.0.0.2", max_version: "1.0rc1" },
      ]),
  },
  {
    rule: "python.entrypoints: an empty list publishes no entrypoints",
    yaml: withPython({ entrypoints: [] }),
    exit: 0,
    check: (s) => expect((s.python as Fields).entrypoints).toEqual([]),
  },
  {
    rule: "python.entrypoints: an entry needs a name",
    yaml: withPython({ entrypoints: [{ min_version: "1.0" }] }),
    exit: 65,
    path: "python.entrypoints[0]",
    message: /missing required key "name"/,
  },
  {
    rule: "python.entrypoints: an entry's keys are name, min_version, max_version",
    yaml: withPython({ entrypoints: [{ name: "pycowsay", min: "1.0" }] }),
    exit: 65,
    path: "python.entrypoints[0].min",
    message: /unknown key "min"/,
  },
  {
    rule: "python.entrypoints: a bound must be a PEP 440 version",
    yaml: withPython({ entrypoints: [{ name: "pycowsay", min_version: "one" }] }),
    exit: 65,
    path: "python.entrypoints[0].min_version",
    message: /not a PEP 440 version/,
  },
  {
    rule: "python.entrypoints: an unquoted numeric bound is refused with the quoting hint",
    yaml: withPython({ entrypoints: [{ name: "pycowsay", max_version: 1.1 }] }),
    exit: 65,
    path: "python.entrypoints[0].max_version",
    message: /quotes/,
  },
  {
    rule: "python.entrypoints: a name is listed once",
    yaml: withPython({ entrypoints: [{ name: "pycowsay" }, { name: "pycowsay", min_version: "2" }] }),
    exit: 65,
    path: "python.entrypoints[1]",
    message: /listed twice/,
  },
  {
    rule: "python.entrypoints: a name holds no whitespace or path separator",
    yaml: withPython({ entrypoints: [{ name: "bin/pycowsay" }] }),
    exit: 65,
    path: "python.entrypoints[0].name",
    message: /console script name/,
  },
  {
    rule: "python.entrypoints: neither a word nor a list",
    yaml: withPython({ entrypoints: { name: "pycowsay" } }),
    exit: 65,
    path: "python.entrypoints",
    message: /expected a string/,
  },
  {
    rule: "python: required for pypi",
    yaml: pythonSpec({ python: undefined }),
    exit: 65,
    path: "",
    message: /missing required key "python" \(source type pypi/,
  },
  {
    rule: "python: required for pylock",
    yaml: pythonSpec({ source: { type: "pylock", path: "pylock.toml" }, python: undefined }),
    files: LOCK_FILE,
    exit: 65,
    path: "",
    message: /missing required key "python" \(source type pylock/,
  },
  {
    rule: "python: refused for forgeone_release (it would do nothing)",
    yaml: spec({ python }),
    exit: 65,
    path: "python",
    message: /only to pylock and pypi sources, not forgeone_release/,
  },
];
