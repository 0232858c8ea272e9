// Runs the cases of python.cases.ts through python3 (one child process, a generated script) and
// through this interpreter, and compares the values, encoded alike on both sides.
import { spawnSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { evalExpression, execModule } from "../exec.js";
import { Bytes } from "../values/bytes.js";
import { Dict, SSet } from "../values/dict.js";
import { SFloat } from "../values/float.js";
import { List, Tuple } from "../values/list.js";
import type { Value } from "../values/value.js";
import { pythonCases } from "./python.cases.js";

const hasPython = spawnSync("python3", ["--version"]).status === 0;

const script = String.raw`
import json, struct, sys

def enc(v):
    if v is None: return "N"
    if v is True: return "T"
    if v is False: return "F"
    if isinstance(v, int): return "i%d" % v
    if isinstance(v, float): return "f" + struct.pack(">d", v).hex()
    if isinstance(v, str): return "s" + ",".join(str(ord(c)) for c in v)
    if isinstance(v, bytes): return "b" + v.hex()
    if isinstance(v, list): return "[" + ",".join(enc(x) for x in v) + "]"
    if isinstance(v, tuple): return "(" + ",".join(enc(x) for x in v) + ")"
    if isinstance(v, dict): return "{" + ",".join(enc(k) + ":" + enc(x) for k, x in v.items()) + "}"
    if isinstance(v, (set, frozenset)): return "S" + ",".join(sorted(enc(x) for x in v))
    return "?" + type(v).__name__

out = []
for src in json.load(sys.stdin):
    try:
        if "\n" in src:
            g = {}
            exec(src, g)
            out.append(enc(g["result"]))
        else:
            out.append(enc(eval(src, {})))
    except Exception as e:
        out.append("E")
json.dump(out, sys.stdout)
`;

function hexOf(f: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, f);
  let s = "";
  for (let i = 0; i < 8; i++) s += view.getUint8(i).toString(16).padStart(2, "0");
  return s;
}

function enc(v: Value): string {
  if (v === null) return "N";
  if (v === true) return "T";
  if (v === false) return "F";
  if (typeof v === "number" || typeof v === "bigint") return `i${v}`;
  if (typeof v === "string") return `s${Array.from(v, (c) => c.charCodeAt(0)).join(",")}`;
  if (v instanceof SFloat) return `f${hexOf(v.v)}`;
  if (v instanceof Bytes) return `b${Buffer.from(v.data).toString("hex")}`;
  if (v instanceof List) return `[${v.elems.map(enc).join(",")}]`;
  if (v instanceof Tuple) return `(${v.elems.map(enc).join(",")})`;
  if (v instanceof Dict) return `{${[...v.entries()].map((e) => `${enc(e.k)}:${enc(e.v)}`).join(",")}}`;
  if (v instanceof SSet) return `S${v.values().map(enc).sort().join(",")}`;
  return `?${v.typeName()}`;
}

function ours(src: string): string {
  try {
    if (src.includes("\n")) {
      const m = execModule({ file: "py.star", source: src, options: { allowGlobalReassign: true } });
      return enc(m.globals.get("result") ?? null);
    }
    return enc(evalExpression({ file: "py.star", source: src }));
  } catch {
    return "E";
  }
}

describe.skipIf(!hasPython)("agreement with python3 on the subsets where the languages agree", () => {
  const all = Object.values(pythonCases).flat();
  const theirs = new Map<string, string>();

  beforeAll(() => {
    const py = spawnSync("python3", ["-c", script], {
      input: JSON.stringify(all),
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
    });
    if (py.status !== 0) throw new Error(`python3 failed: ${py.stderr}`);
    const results = JSON.parse(py.stdout) as string[];
    all.forEach((src, i) => {
      theirs.set(src, results[i] as string);
    });
  });

  for (const [family, cases] of Object.entries(pythonCases)) {
    it(`${family} (${cases.length} cases)`, () => {
      const mismatches = cases
        .map((src) => ({ src, python: theirs.get(src), starlark: ours(src) }))
        .filter((m) => m.python !== m.starlark);
      expect(mismatches.slice(0, 10)).toEqual([]);
      expect(cases.some((src) => theirs.get(src) !== "E")).toBe(true);
    });
  }
});
