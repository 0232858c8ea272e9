import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { SpecError } from "../src/spec/diagnostics.js";
import { loadMirrorSpec } from "../src/spec/loader.js";
import { basePythonSpec, baseSpec } from "./support/spec-case.js";

/** A small deterministic PRNG (mulberry32): the same seed gives the same mutations. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    below: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
  };
}

type Json = unknown;
const oddValues: Json[] = [
  null,
  true,
  0,
  -1,
  1.5,
  "",
  " ",
  "x".repeat(100_000),
  "ünïcödé ✓ \u202e\u0000",
  "(?P<version>",
  "[",
  "https://user:secret@example.com/x",
  [],
  {},
  [[[]]],
  { "": "" },
  "linux/amd64+libc.musl",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata placeholder, verbatim
  "${installPath}",
];
const keys = [
  "name",
  "target",
  "source",
  "assets",
  "variants",
  "platforms",
  "tests",
  "sign",
  "versions",
  "wheels",
  "python",
  "extends",
  "registry",
  "type",
  "runner",
  "containers",
  "zzz",
  "Assets",
  "naem",
];

function paths(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [prefix];
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) out.push(...paths(v, [...prefix, i]));
  } else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function mutate(doc: Json, rng: ReturnType<typeof prng>): Json {
  const copy = structuredClone(doc) as Record<string, Json>;
  const all = paths(copy).filter((p) => p.length > 0);
  const at = rng.pick(all);
  const parentPath = at.slice(0, -1);
  let parent: Json = copy;
  for (const step of parentPath) parent = (parent as Record<string | number, Json>)[step];
  const last = at[at.length - 1] as string | number;
  const holder = parent as Record<string | number, Json>;
  switch (rng.below(5)) {
    case 0:
      if (Array.isArray(holder)) holder.splice(Number(last), 1);
      else delete holder[last];
      break;
    case 1:
      holder[last] = rng.pick(oddValues);
      break;
    case 2:
      if (!Array.isArray(holder)) holder[rng.pick(keys)] = rng.pick(oddValues);
      break;
    case 3: {
      let deep: Json = "bottom";
      for (let i = 0; i < rng.below(200); i++) deep = rng.below(2) ? [deep] : { k: deep };
      holder[last] = deep;
      break;
    }
    default:
      holder[last] = structuredClone(copy);
  }
  return copy;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pkg-mirror-fuzz-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function outcome(text: string): Promise<"ok" | 64 | 65> {
  const file = join(dir, "mirror.yml");
  await writeFile(file, text);
  try {
    await loadMirrorSpec(file, { repoRoot: dir });
    return "ok";
  } catch (error) {
    // anything but a SpecError would be a crash: the test fails with it
    if (!(error instanceof SpecError)) throw error;
    expect([64, 65]).toContain(error.exitCode);
    expect(error.message).not.toContain("\n");
    expect(error.message).toMatch(/^.+:\d+:\d+: /);
    return error.exitCode as 64 | 65;
  }
}

describe("the loader never crashes", () => {
  it.each([1, 2, 3, 4])("on 800 random mutations of valid specs (seed %i)", async (seed) => {
    const rng = prng(seed);
    const seen = new Set<string>();
    for (let i = 0; i < 800; i++) {
      let doc: Json = rng.below(2) ? baseSpec : basePythonSpec;
      for (let m = 0, n = 1 + rng.below(3); m < n; m++) doc = mutate(doc, rng);
      seen.add(String(await outcome(stringify(doc, { lineWidth: 0 }))));
    }
    expect(seen.has("65")).toBe(true);
  });

  it("on random YAML text: truncations, anchors and aliases, tabs and garbage", async () => {
    const rng = prng(99);
    const text = stringify(parse(stringify(baseSpec)));
    const fragments = [
      "&a [1]",
      "*a",
      "*nope",
      "\t",
      "{",
      "]",
      ": :",
      "- - -",
      "? x",
      "!!binary x",
      "%YAML 1.2\n---",
      "<<: *a",
    ];
    for (let i = 0; i < 1500; i++) {
      const cut = rng.below(text.length);
      const mutated = `${text.slice(0, cut)}${rng.pick(fragments)}${text.slice(cut + rng.below(10))}`;
      await outcome(mutated);
    }
  });

  it("refuses a YAML alias bomb instead of expanding it", async () => {
    const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(",")}]`,
      );
    lines.push("name: *a11");
    const file = join(dir, "bomb.yml");
    await writeFile(file, lines.join("\n"));
    await expect(loadMirrorSpec(file, { repoRoot: dir })).rejects.toThrow(/alias/i);
  });
});
