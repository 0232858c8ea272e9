// `npm run bench -- starlark [runs]`: the Starlark interpreter on a few standard programs against
// python3 running the same source in the same run (each timed inside its own process: parse,
// compile and run, without interpreter start-up; the median of the runs).
import { spawnSync } from "node:child_process";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { execModule, repr } from "@pkg/starlark";
import { median } from "./measure.js";

/** The goal: the million-iteration loop in under a second. */
export const starlarkGoal = { loopSeconds: 1 };

/** Programs valid in both Starlark and Python; each binds `result`. */
export const programs: Record<string, string> = {
  "loop 1M x += i": `
def loop():
    x = 0
    for i in range(1000000):
        x += i
    return x
result = loop()
`,
  "fibonacci(20000), a big int": `
def fib(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a
result = fib(20000) % 1000000007
`,
  "strings: build 200k, join, split": `
def strings():
    parts = []
    for i in range(200000):
        parts.append("item%d" % i)
    text = ",".join(parts)
    n = 0
    for f in text.split(","):
        if f.endswith("7"):
            n += 1
    return (len(text), n)
result = strings()
`,
  "dict word count, 300k words": `
def words():
    vocab = "the quick brown fox jumps over the lazy dog and runs far away from a big bad wolf".split()
    out = []
    x = 1
    for i in range(300000):
        x = (x * 1103515245 + 12345) % 2147483648
        out.append(vocab[x % len(vocab)])
    return " ".join(out)
def count(text):
    d = {}
    for w in text.split():
        d[w] = d.get(w, 0) + 1
    return d
counts = count(words())
result = (len(counts), counts["the"], sorted(counts.values())[0])
`,
  "sort 100k ints": `
def gen():
    x = 42
    out = []
    for i in range(100000):
        x = (x * 1103515245 + 12345) % 2147483648
        out.append(x)
    return out
data = gen()
ordered = sorted(data)
result = (ordered[0], ordered[50000], ordered[-1])
`,
};

export interface StarlarkBenchCase {
  name: string;
  oursSeconds: number;
  oursFirstSeconds: number;
  pythonSeconds: number;
  ratio: number;
  agree: boolean;
}

export interface StarlarkBenchResult {
  runs: number;
  cases: StarlarkBenchCase[];
  ok: boolean;
}

const pythonTimer = `
import json, sys, time
progs, runs = json.load(sys.stdin)
out = {}
for name, src in progs.items():
    times = []
    result = None
    for _ in range(runs):
        g = {}
        t = time.perf_counter()
        exec(compile(src, name, "exec"), g)
        times.append(time.perf_counter() - t)
        result = g["result"]
    times.sort()
    out[name] = {"seconds": times[len(times) // 2], "result": repr(result)}
json.dump(out, sys.stdout)
`;

function runPython(runs: number): Record<string, { seconds: number; result: string }> {
  const py = spawnSync("python3", ["-c", pythonTimer], {
    input: JSON.stringify([programs, runs]),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (py.status !== 0) throw new Error(`python3 failed: ${py.stderr || py.error?.message}`);
  return JSON.parse(py.stdout) as Record<string, { seconds: number; result: string }>;
}

export async function runStarlarkBench(options: { runs?: number } = {}): Promise<StarlarkBenchResult> {
  const runs = options.runs ?? 5;
  const python = runPython(runs);
  const cases: StarlarkBenchCase[] = [];
  for (const [name, source] of Object.entries(programs)) {
    const times: number[] = [];
    let result = "";
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      const m = execModule({ file: "bench.star", source });
      times.push((performance.now() - t) / 1000);
      result = repr(m.globals.get("result") ?? null);
    }
    const theirs = python[name];
    if (theirs === undefined) throw new Error(`python3 did not run ${name}`);
    const oursSeconds = median(times);
    cases.push({
      name,
      oursSeconds,
      oursFirstSeconds: times[0] as number,
      pythonSeconds: theirs.seconds,
      ratio: oursSeconds / theirs.seconds,
      agree: theirs.result === result,
    });
  }
  const loop = cases[0] as StarlarkBenchCase;
  const ok = loop.oursFirstSeconds < starlarkGoal.loopSeconds && cases.every((c) => c.agree);
  return { runs, cases, ok };
}

export function formatStarlarkBench(result: StarlarkBenchResult): string {
  const rows = [
    ["program", "ours s (median)", "ours first run", "python3 s", "ours/python", "results"],
    ...result.cases.map((c) => [
      c.name,
      c.oursSeconds.toFixed(3),
      c.oursFirstSeconds.toFixed(3),
      c.pythonSeconds.toFixed(3),
      c.ratio.toFixed(2),
      c.agree ? "equal" : "DIFFER",
    ]),
  ];
  const widths = (rows[0] as string[]).map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  const lines = rows.map((r) => `  ${r.map((cell, i) => cell.padEnd(widths[i] as number)).join("  ")}`);
  const loop = result.cases[0] as StarlarkBenchCase;
  return [
    `Starlark interpreter vs python3 on the same programs (in-process: parse, compile, run; median of ${result.runs})`,
    ...lines,
    `  loop 1M: first run ${loop.oursFirstSeconds.toFixed(3)} s (goal < ${starlarkGoal.loopSeconds} s) ${loop.oursFirstSeconds < starlarkGoal.loopSeconds ? "met" : "NOT MET"}`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runStarlarkBench();
  process.stdout.write(`${formatStarlarkBench(result)}\n`);
}
