import { mkdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { startRegistry } from "@pkg/testkit";
import { median, repoRoot, timedRun } from "./measure.js";
import { mixedTree } from "./mixed-tree.js";

const pkgBin = join(repoRoot, "packages/package/bin/pkg.js");
const timed = async (command: string, args: string[]) => (await timedRun(command, args)).seconds;

export const pushGoal = { ratio: 1.0 };

export interface PushBenchResult {
  bundleBytes: number;
  rounds: number;
  oursSeconds: number;
  skopeoSeconds: number;
  ratio: number;
  ok: boolean;
}

async function withRegistry<T>(body: (host: string) => Promise<T>): Promise<T> {
  const registry = await startRegistry();
  try {
    return await body(registry.host);
  } finally {
    await registry.stop();
  }
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
