import { describe, expect, it } from "vitest";
import { StarlarkError, StarlarkEvalError } from "../errors.js";
import type { Thread } from "../eval/thread.js";
import { execModule } from "../exec.js";
import { Dict } from "../values/dict.js";
import { SFloat } from "../values/float.js";
import { repr, str } from "../values/format.js";
import { List, Tuple } from "../values/list.js";
import type { Value } from "../values/value.js";
import { asInt, asString, asStringDict, asStringList, optional, toJS, toStarlark } from "./convert.js";
import { enumType, hostFunction, namespace, Struct, struct } from "./host.js";

/** A host shaped like the package tool's test-script API. */
function testHost() {
  const os = enumType("os", { Linux: "linux", Darwin: "darwin", Windows: "windows" });
  const arch = enumType("arch", { Amd64: "amd64", Arm64: "arm64" });
  const runs: {
    prog: string;
    args: string[];
    env: Record<string, string> | undefined;
    cwd: string | undefined;
  }[] = [];
  const run = hostFunction("run(prog, *args, env=None, cwd=None, stdin=None)", ({ prog, args, env, cwd }) => {
    const argv = asStringList(args, "run: args");
    runs.push({
      prog: asString(prog, "run: prog"),
      args: argv,
      env: optional(env) === undefined ? undefined : asStringDict(env, "run: env"),
      cwd: optional(cwd) === undefined ? undefined : asString(cwd, "run: cwd"),
    });
    const exitCode = argv.includes("--fail") ? 3 : 0;
    return struct(
      "RunResult",
      { exit_code: exitCode, stdout: `${argv.join(" ")}\n`, stderr: "", duration_ms: 5, truncated: false },
      { str: (s) => `RunResult(exit_code=${str(s.get("exit_code") ?? null)})` },
    );
  });
  const fail = (kind: string, message: string): never => {
    throw new StarlarkError(message, { tag: kind });
  };
  const expectNs = namespace("expect", {
    eq: hostFunction("eq(got, want, msg=None)", ({ got, want, msg }) => {
      if (repr(got as Value) !== repr(want as Value))
        fail(
          "eq",
          `${msg ? `${str(msg as Value)}: ` : ""}got ${repr(got as Value)}, want ${repr(want as Value)}`,
        );
      return null;
    }),
    ok: hostFunction("ok(result, msg=None)", ({ result }) => {
      if (!(result instanceof Struct) || result.get("exit_code") !== 0)
        fail("ok", `command failed: ${str(result as Value)}`);
      return null;
    }),
  });
  const platform = struct(
    "Platform",
    { os: os.Linux, arch: arch.Arm64, is_any: false },
    { str: () => "linux/arm64" },
  );
  const pkg = namespace("pkg", {
    run,
    os: namespace("os", os),
    arch: namespace("arch", arch),
    target_platform: platform,
    env: hostFunction("env(name)", ({ name }) => (asString(name, "env: name") === "HOME" ? "/home/u" : null)),
  });
  return { predeclared: { pkg, expect: expectNs }, runs };
}

function runScript(source: string) {
  const host = testHost();
  const printed: string[] = [];
  const result = execModule({
    file: "smoke.star",
    source,
    predeclared: host.predeclared,
    options: { allowTopLevelControl: true, print: (m) => printed.push(m) },
  });
  return { ...host, printed, globals: result.globals };
}

function evalError(source: string): StarlarkEvalError {
  try {
    runScript(source);
  } catch (e) {
    if (e instanceof StarlarkEvalError) return e;
    throw e;
  }
  throw new Error("no error");
}

describe("host API", () => {
  it("runs a test script against host functions, structs, namespaces and enum constants", () => {
    const { runs, printed } = runScript(
      [
        'r = pkg.run("uv", "--version", env={"A": "1"}, cwd="sub")',
        "expect.ok(r)",
        'expect.eq(r.stdout, "--version\\n")',
        "expect.eq(r.exit_code, 0)",
        'expect.eq(type(r), "RunResult")',
        'expect.eq(str(r), "RunResult(exit_code=0)")',
        'expect.eq(type(pkg.target_platform.os), "os")',
        "expect.eq(pkg.target_platform.os == pkg.os.Linux, True)",
        "expect.eq(pkg.target_platform.os != pkg.os.Windows, True)",
        'expect.eq(pkg.target_platform.os == "linux", False)',
        'expect.eq(str(pkg.target_platform.os), "linux")',
        'expect.eq(repr(pkg.arch.Arm64), "arch.Arm64")',
        'expect.eq(str(pkg.target_platform), "linux/arm64")',
        "expect.eq(pkg.target_platform.is_any, False)",
        'expect.eq(pkg.env("HOME"), "/home/u")',
        'expect.eq(pkg.env("NOPE"), None)',
        "expect.eq({pkg.os.Linux: 1}[pkg.target_platform.os], 1)",
        'expect.eq(dir(pkg.os), ["Darwin", "Linux", "Windows"])',
        'expect.eq(hasattr(r, "stderr"), True)',
        'if pkg.target_platform.os == pkg.os.Windows:\n    fail("not on windows")',
        'print("ok", r.exit_code)',
      ].join("\n"),
    );
    expect(runs).toEqual([{ prog: "uv", args: ["--version"], env: { A: "1" }, cwd: "sub" }]);
    expect(printed).toEqual(["ok 0"]);
  });

  it("reports a host assertion with its tag, position and call stack", () => {
    const err = evalError('def check():\n    expect.eq(1, 2, msg="numbers")\ncheck()\n');
    expect(err.kind).toBe("error");
    expect(err.tag).toBe("eq");
    expect(err.message).toBe("smoke.star:2:14: numbers: got 1, want 2");
    expect(err.backtrace()).toBe(
      [
        "Traceback (most recent call last):",
        "  smoke.star:3:6: in <toplevel>",
        "  smoke.star:2:14: in check",
        "Error: numbers: got 1, want 2",
      ].join("\n"),
    );
  });

  it("keeps keyword-only parameters keyword-only and checks argument types", () => {
    const mk = hostFunction(
      "mk(name, *, size=1)",
      ({ name, size }) => `${str(name as Value)}:${str(size as Value)}`,
    );
    expect(
      execModule({ file: "k.star", source: 'result = mk("a", size=2)', predeclared: { mk } }).globals.get(
        "result",
      ),
    ).toBe("a:2");
    expect(() => execModule({ file: "k.star", source: 'mk("a", 2)', predeclared: { mk } })).toThrow(
      "k.star:1:3: mk: got 2 positional arguments, want at most 1",
    );
    expect(runScript('pkg.run("a", "b", "c")').runs[0]?.args).toEqual(["b", "c"]);
    expect(evalError('pkg.run("a", env={"A": 1})').message).toBe(
      'smoke.star:1:8: run: env: value of "A" is int, want string',
    );
    expect(evalError("pkg.run(1)").message).toBe("smoke.star:1:8: run: prog: got int, want string");
    expect(evalError('pkg.run("a", bogus=1)').message).toBe(
      "smoke.star:1:8: run: unexpected keyword argument bogus",
    );
    expect(evalError("pkg.nope").message).toBe("smoke.star:1:5: namespace has no .nope field or method");
    expect(evalError("pkg.target_platform.os = 1").message).toContain("Platform value is immutable");
  });

  it("distinguishes fail() from the host's errors", () => {
    const err = evalError('fail("giving up", 3)');
    expect(err.kind).toBe("fail");
    expect(err.detail).toBe("giving up 3");
    expect(err.message).toBe("smoke.star:1:5: fail: giving up 3");
  });

  it("reports what a host function throws that is not a StarlarkError as internal, keeping the cause", () => {
    const boom = hostFunction("boom()", () => {
      throw new TypeError("bug in host");
    });
    try {
      execModule({ file: "b.star", source: "boom()", predeclared: { boom } });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(StarlarkEvalError);
      const err = e as StarlarkEvalError;
      expect(err.kind).toBe("internal");
      expect(err.message).toBe("b.star:1:5: internal error: bug in host");
      expect(err.cause).toBeInstanceOf(TypeError);
    }
  });

  it("gives host functions the thread: callbacks into Starlark and per-run data", () => {
    const apply = hostFunction("apply(f, *args, **kwargs)", ({ f, args, kwargs }, thread: Thread) => {
      thread.local.set("calls", ((thread.local.get("calls") as number | undefined) ?? 0) + 1);
      const kw: Record<string, Value> = {};
      for (const e of (kwargs as Dict).entries()) kw[e.k as string] = e.v;
      return thread.call(f as Value, [...(args as Tuple).elems], kw);
    });
    const m = execModule({
      file: "a.star",
      source: "def add(a, b=0):\n    return a + b\nresult = [apply(add, 1), apply(add, 1, b=2)]",
      predeclared: { apply },
    });
    expect(repr(m.globals.get("result") ?? null)).toBe("[1, 3]");
    expect(m.thread.local.get("calls")).toBe(2);
  });

  it("builds structs with a default repr, equality and hashing by content", () => {
    const a = struct("point", { x: 1, y: "b" });
    const b = struct("point", { x: 1, y: "b" });
    expect(repr(a)).toBe('point(x = 1, y = "b")');
    const m = execModule({
      file: "s.star",
      source: "result = (a == b, {a: 1}[b], a.x)",
      predeclared: { a, b },
    });
    expect(repr(m.globals.get("result") ?? null)).toBe("(True, 1, 1)");
    const mutable = struct("box", { v: 1 }, { mutable: true });
    execModule({ file: "s.star", source: "def f():\n    box.v = 2\nf()", predeclared: { box: mutable } });
    expect(mutable.get("v")).toBe(2);
  });
});

describe("conversions", () => {
  it("converts plain JS data to Starlark values and back", () => {
    const v = toStarlark({
      s: "x",
      n: 3,
      big: 2n ** 70n,
      f: 1.5,
      b: true,
      none: null,
      list: [1, [2]],
      bytes: new Uint8Array([1]),
    });
    expect(v).toBeInstanceOf(Dict);
    expect(repr(v)).toBe(
      '{"s": "x", "n": 3, "big": 1180591620717411303424, "f": 1.5, "b": True, "none": None, "list": [1, [2]], "bytes": b"\\x01"}',
    );
    expect(toJS(v)).toEqual({
      s: "x",
      n: 3,
      big: 2n ** 70n,
      f: 1.5,
      b: true,
      none: null,
      list: [1, [2]],
      bytes: new Uint8Array([1]),
    });
    expect(toStarlark(2 ** 60)).toBe(2n ** 60n);
    expect(toStarlark(new Map([[1, "a"]]))).toBeInstanceOf(Dict);
    expect(toJS(toStarlark(new Map([[1, "a"]])))).toEqual(new Map([[1, "a"]]));
    expect(toJS(new Tuple([1, "a"]))).toEqual([1, "a"]);
    expect(toJS(new SFloat(2))).toBe(2);
    expect(toJS(struct("p", { x: new List([1]) }))).toEqual({ x: [1] });
    expect(toJS(enumType("os", { Linux: "linux" }).Linux)).toBe("linux");
  });

  it("extracts typed arguments with clear messages", () => {
    expect(asInt(3, "n")).toBe(3);
    expect(() => asInt("3", "n")).toThrow("n: got string, want int");
    expect(() => asInt(2n ** 70n, "n")).toThrow("out of range");
    expect(() => asStringList(new List([1]), "args")).toThrow("args: element #0 is int, want string");
    expect(optional(null)).toBeUndefined();
  });
});
