import { describe, expect, it } from "vitest";
import { StarlarkEvalError, StarlarkSyntaxError } from "./errors.js";
import { Thread } from "./eval/thread.js";
import { evalExpression, execModule } from "./exec.js";
import { repr } from "./values/format.js";
import { List } from "./values/list.js";

function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error("nothing thrown");
}

describe("module execution", () => {
  it("freezes the globals and everything reachable once the module has run", () => {
    const m = execModule({
      file: "m.star",
      source:
        "items = [1, {'k': [2]}]\ndef add(x):\n    items.append(x)\ndef add_deep(x):\n    items[1]['k'].append(x)",
    });
    const items = m.globals.get("items");
    expect(items).toBeInstanceOf(List);
    expect((items as List).frozen).toBe(true);
    const err = thrown(() => m.thread.call(m.globals.get("add") ?? null, [3]));
    expect(err).toBeInstanceOf(StarlarkEvalError);
    expect((err as StarlarkEvalError).message).toBe("m.star:3:17: cannot append to frozen list");
    expect((thrown(() => m.thread.call(m.globals.get("add_deep") ?? null, [3])) as Error).message).toContain(
      "cannot append to frozen list",
    );
  });

  it("computes the million-iteration loop exactly", () => {
    const m = execModule({
      file: "loop.star",
      source: "def f():\n    x = 0\n    for i in range(1000000):\n        x += i\n    return x\nresult = f()",
    });
    expect(m.globals.get("result")).toBe(499999500000);
  });

  it("keeps ints exact across the 2^53 boundary, in both directions", () => {
    const m = execModule({
      file: "big.star",
      source: [
        "def fib(n):",
        "    a, b = 0, 1",
        "    for _ in range(n):",
        "        a, b = b, a + b",
        "    return a",
        "big = fib(100)",
        "back = big - fib(99) - fib(98)",
        "result = (big, back, type(back))",
      ].join("\n"),
    });
    expect(repr(m.globals.get("result") ?? null)).toBe('(354224848179261915075, 0, "int")');
    expect(m.globals.get("big")).toBe(354224848179261915075n);
    expect(m.globals.get("back")).toBe(0);
  });

  it("stops a program past its step budget, and when the interrupt hook says so", () => {
    const loop = "def f():\n    for i in range(100000000):\n        pass\nf()";
    const budget = thrown(() => execModule({ file: "l.star", source: loop, options: { maxSteps: 50000 } }));
    expect(budget).toBeInstanceOf(StarlarkEvalError);
    expect((budget as StarlarkEvalError).kind).toBe("cancelled");
    expect((budget as StarlarkEvalError).message).toContain("l.star:2:5: too many steps");
    let checks = 0;
    const interrupted = thrown(() =>
      execModule({
        file: "l.star",
        source: loop,
        options: { interrupt: () => (++checks > 3 ? "deadline passed" : undefined) },
      }),
    ) as StarlarkEvalError;
    expect(interrupted.kind).toBe("cancelled");
    expect(interrupted.message).toBe("l.star:2:5: cancelled: deadline passed");
    expect(interrupted.backtrace().split("\n")).toEqual([
      "Traceback (most recent call last):",
      "  l.star:4:2: in <toplevel>",
      "  l.star:2:5: in f",
      "Error: cancelled: deadline passed",
    ]);
  });

  it("sends print() to the print handler, and shares a thread between runs", () => {
    const lines: string[] = [];
    const thread = new Thread({ print: (m) => lines.push(m) });
    execModule({ file: "p.star", source: 'print("a", 1)', options: { thread } });
    execModule({
      file: "p.star",
      source: 'print("b", sep="-")\nprint("c", "d", sep="-")',
      options: { thread },
    });
    expect(lines).toEqual(["a 1", "b", "c-d"]);
  });

  it("reports every name resolution problem at once, in file order", () => {
    const err = thrown(() => execModule({ file: "r.star", source: "x = y\nz = 1\nz = 2\nbreak\n" }));
    expect(err).toBeInstanceOf(StarlarkSyntaxError);
    const s = err as StarlarkSyntaxError;
    expect(s.kind).toBe("resolve");
    expect(s.message).toBe("r.star:1:5: undefined: y");
    expect(s.describe().split("\n")).toEqual([
      "r.star:1:5: undefined: y",
      "r.star:3:1: cannot reassign global z (first bound at r.star:2:1)",
      "r.star:4:1: break not in a loop",
    ]);
  });

  it("shows one frame per active call, innermost last, with lambdas and nested functions", () => {
    const src = [
      "def outer(xs):",
      "    def inner(x):",
      "        return (lambda y: 10 // y)(x)",
      "    return [inner(x) for x in xs]",
      "outer([1, 0])",
    ].join("\n");
    const err = thrown(() => execModule({ file: "s.star", source: src })) as StarlarkEvalError;
    expect(err.frames.map((f) => `${f.line}:${f.col} ${f.fn}`)).toEqual([
      "3:30 lambda",
      "3:35 inner",
      "4:18 outer",
      "5:6 <toplevel>",
    ]);
    expect(err.message).toBe("s.star:3:30: integer division by zero");
  });

  it("reports a file nested beyond the parser's reach as a syntax error", () => {
    const err = thrown(() =>
      execModule({ file: "n.star", source: `x = ${"(".repeat(20000)}1${")".repeat(20000)}` }),
    );
    expect(err).toBeInstanceOf(StarlarkSyntaxError);
    expect((err as Error).message).toBe("n.star:1:1: the file nests too deeply to parse");
  });

  it("evaluates a single expression with predeclared values", () => {
    expect(evalExpression({ file: "e.star", source: "a * 2 + len(b)", predeclared: { a: 3, b: "xy" } })).toBe(
      8,
    );
    expect(() => evalExpression({ file: "e.star", source: "x = 1" })).toThrow("want a single expression");
  });

  it("uses a function of the finished module from the host, with its own recursion check", () => {
    const m = execModule({
      file: "f.star",
      source: "def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)",
    });
    const fact = m.globals.get("fact") ?? null;
    expect((thrown(() => m.thread.call(fact, [5])) as Error).message).toContain(
      "function fact called recursively",
    );
    const t = new Thread({ allowRecursion: true });
    expect(t.call(fact, [25])).toBe(15511210043330985984000000n);
  });
});
