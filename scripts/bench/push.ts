// Benchmark of `pkg package push` of the mixed-tree package to a local registry against
// `skopeo copy oci:... docker://...` of the same content, in the same run.
// Run: npx tsx --conditions=source scripts/bench/push.ts [rounds]
import { spawn } from "node:child_process";
import { mkdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startRegistry } from "@pkg/testkit";
import { mixedTree } from "./mixed-tree.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../..");
const pkgBin = join(repoRoot, "packages/package/bin/pkg.js");

export const pushGoal = { ratio: 1.0 };

export interface PushBenchResult {
  bundleBytes: number;
  rounds: number;
  oursSeconds: number;
  skopeoSeconds: number;
  ratio: number;
  ok: boolean;
}

async function timed(command: string, args: string[]): Promise<number> {
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr}`)),
    );
  });
  return (performance.now() - started) / 1000;
}

async function withRegistry<T>(body: (host: string) => Promise<T>): Promise<T> {
  const registry = await startRegistry();
  try {
    return await body(registry.host);
  } finally {
    await registry.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function runPushBench(
  options: { rounds?: number; benchDir?: string } = {},
): Promise<PushBenchResult> {
  const rounds = options.rounds ?? 3;
  const benchDir = options.benchDir ?? join(repoRoot, ".bench");
  await mkdir(benchDir, { recursive: true });
  const tree = await mixedTree(benchDir);
  const bundle = join(benchDir, "push", "package.tar.zst");
  await timed(process.execPath, [pkgBin, "package", "create", tree, "-o", bundle, "--level", "3"]);
  const bundleBytes = (await stat(bundle)).size;
  // the same content as an OCI image layout, written by pkg itself, is skopeo's source
  const layout = join(benchDir, "push", "layout");
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

  const ours: number[] = [];
  const skopeo: number[] = [];
  // Each push goes to a registry of its own, with empty storage: skopeo remembers where it has seen
  // blobs (its blob-info cache) and would mount instead of uploading into a registry it knows.
  // The two alternate so neither enjoys a warmer page cache.
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
  return { bundleBytes, rounds, oursSeconds, skopeoSeconds, ratio, ok: ratio <= pushGoal.ratio };
}

export function formatPushBench(result: PushBenchResult): string {
  const mb = (result.bundleBytes / 1e6).toFixed(1);
  return [
    `push of a ${mb} MB package to a local registry (median of ${result.rounds}, whole processes)`,
    `  pkg package push      ${result.oursSeconds.toFixed(2)} s`,
    `  skopeo copy oci: -> docker://  ${result.skopeoSeconds.toFixed(2)} s`,
    `  ratio ${result.ratio.toFixed(2)} (goal <= ${pushGoal.ratio.toFixed(1)}) ${result.ok ? "met" : "NOT MET"}`,
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rounds = process.argv[2] ? Number(process.argv[2]) : undefined;
  const result = await runPushBench({ rounds });
  process.stdout.write(`${formatPushBench(result)}\n`);
}
