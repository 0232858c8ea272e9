import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { median, repoRoot, timedRun, withRegistry } from "./measure.js";
import { mixedTree } from "./mixed-tree.js";
import { measurePipelinePush, type PipelinePushCase } from "./pipeline-push.js";

const pkgBin = join(repoRoot, "packages/package/bin/pkg.js");
const timed = async (command: string, args: string[]) => (await timedRun(command, args)).seconds;

export const pushGoal = { ratio: 1.0 };

/** Rounds of the six-platform case, at the least. */
const PIPELINE_ROUNDS = 5;

/** One package pushed by both tools: its size, every round of each, their medians and ratio. */
export interface PushCase {
  name: string;
  bundleBytes: number;
  ours: number[];
  skopeo: number[];
  oursSeconds: number;
  skopeoSeconds: number;
  ratio: number;
  ok: boolean;
}

export interface PushBenchResult {
  rounds: number;
  cases: PushCase[];
  /** A version of six platforms: `pkg-mirror package pipeline push` against skopeo per platform. */
  pipeline: PipelinePushCase;
  ok: boolean;
}

/** Sizes of the single-file packages besides the mixed tree: what the issue asks push to match skopeo at. */
const SIZES: Array<[name: string, bytes: number]> = [
  ["1 MB", 1e6],
  ["30 MB", 30e6],
  ["300 MB", 300e6],
  ["1 GB", 1e9],
];

/** A tree of one incompressible file of `bytes` (made once under .bench/push and kept). */
async function sizedTree(dir: string, bytes: number): Promise<string> {
  const tree = join(dir, "tree");
  const file = join(tree, "bin", "payload");
  if ((await stat(file).catch(() => undefined))?.size === bytes) return tree;
  await rm(tree, { recursive: true, force: true });
  await mkdir(join(tree, "bin"), { recursive: true });
  const out = createWriteStream(file);
  const chunk = 1 << 20;
  for (let done = 0; done < bytes; done += chunk) {
    if (!out.write(randomBytes(Math.min(chunk, bytes - done)))) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return tree;
}

/** The bundle of `tree` and the same content as an OCI image layout (skopeo's source), both by pkg. */
async function bundleAndLayout(dir: string, tree: string): Promise<{ bundle: string; layout: string }> {
  const bundle = join(dir, "package.tar.zst");
  const layout = join(dir, "layout");
  await rm(layout, { recursive: true, force: true });
  await timed(process.execPath, [pkgBin, "package", "create", tree, "-o", bundle, "--level", "3"]);
  await timed(process.execPath, [
    pkgBin,
    "package",
    "push",
    "--layout",
    layout,
    "-i",
    "bench.local/bench/tool:1.0.0",
    "-p",
    "linux/amd64",
    bundle,
  ]);
  return { bundle, layout };
}

/**
 * `pkg package push` of the bundle against `skopeo copy` of the same content, `rounds` times each.
 * Each push goes to a registry of its own, with empty storage: skopeo remembers where it has seen
 * blobs (its blob-info cache) and would mount instead of uploading into a registry it knows. The
 * two alternate so neither enjoys a warmer page cache.
 */
async function measureCase(name: string, dir: string, tree: string, rounds: number): Promise<PushCase> {
  const { bundle, layout } = await bundleAndLayout(dir, tree);
  const ours: number[] = [];
  const skopeo: number[] = [];
  for (let round = 0; round < rounds; round++) {
    ours.push(
      await withRegistry((host) =>
        timed(process.execPath, [
          pkgBin,
          "package",
          "push",
          "-i",
          `${host}/bench/tool:1.0.0`,
          "-p",
          "linux/amd64",
          bundle,
        ]),
      ),
    );
    skopeo.push(
      await withRegistry((host) =>
        timed("skopeo", [
          "copy",
          "--all",
          "--quiet",
          "--dest-tls-verify=false",
          `oci:${join(layout, "bench/tool")}:1.0.0`,
          `docker://${host}/bench/tool:1.0.0`,
        ]),
      ),
    );
  }
  const oursSeconds = median(ours);
  const skopeoSeconds = median(skopeo);
  const ratio = oursSeconds / skopeoSeconds;
  const bundleBytes = (await stat(bundle)).size;
  return { name, bundleBytes, ours, skopeo, oursSeconds, skopeoSeconds, ratio, ok: ratio <= pushGoal.ratio };
}

export async function runPushBench(
  options: { rounds?: number; benchDir?: string } = {},
): Promise<PushBenchResult> {
  const rounds = options.rounds ?? 3;
  const benchDir = options.benchDir ?? join(repoRoot, ".bench");
  await mkdir(benchDir, { recursive: true });
  const cases: PushCase[] = [];
  for (const [name, bytes] of SIZES) {
    const dir = join(benchDir, "push", name.replace(" ", ""));
    await mkdir(dir, { recursive: true });
    cases.push(await measureCase(`one ${name} file`, dir, await sizedTree(dir, bytes), rounds));
  }
  const mixed = join(benchDir, "push", "mixed");
  await mkdir(mixed, { recursive: true });
  cases.push(await measureCase("a mixed release tree", mixed, await mixedTree(benchDir), rounds));
  // the six-platform version swings most with the host (0.94 to 1.26 s in one run): five rounds
  // at least, for a steadier median
  const pipeline = await measurePipelinePush(benchDir, Math.max(rounds, PIPELINE_ROUNDS), pushGoal.ratio);
  return { rounds, cases, pipeline, ok: cases.every((c) => c.ok) && pipeline.ok };
}

const rounded = (seconds: number[]) => seconds.map((s) => s.toFixed(2)).join(", ");

export function formatPushBench(result: PushBenchResult): string {
  const lines = [
    `push to a local registry, each tool into its own (median of ${result.rounds}, whole processes)`,
  ];
  for (const c of result.cases) {
    lines.push(
      `  ${c.name}, package ${(c.bundleBytes / 1e6).toFixed(1)} MB: pkg package push ${c.oursSeconds.toFixed(2)} s ` +
        `(${rounded(c.ours)}), skopeo copy ${c.skopeoSeconds.toFixed(2)} s (${rounded(c.skopeo)}), ` +
        `ratio ${c.ratio.toFixed(2)} (goal <= ${pushGoal.ratio.toFixed(1)}) ${c.ok ? "met" : "NOT MET"}`,
    );
  }
  const p = result.pipeline;
  lines.push(
    `  ${p.name}, bundles ${(p.bundleBytes / 1e6).toFixed(1)} MB, median of ${p.ours.length}: pkg-mirror pipeline push ${p.oursSeconds.toFixed(2)} s ` +
      `(${rounded(p.ours)}), skopeo copy ${p.skopeoSeconds.toFixed(2)} s (${rounded(p.skopeo)}; ` +
      `one process per platform, ${p.platforms} in sequence, each time their sum), ` +
      `ratio ${p.ratio.toFixed(2)} (goal <= ${pushGoal.ratio.toFixed(1)}) ${p.ok ? "met" : "NOT MET"}`,
  );
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rounds = process.argv[2] ? Number(process.argv[2]) : undefined;
  const result = await runPushBench({ rounds });
  process.stdout.write(`${formatPushBench(result)}\n`);
}
