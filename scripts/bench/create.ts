import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median, repoRoot, timedRun } from "./measure.js";
import { mixedTree } from "./mixed-tree.js";

const childScript = join(dirname(fileURLToPath(import.meta.url)), "create-child.ts");

export const goals = { ratio: 1.2, peakRssBytes: 256 * 1024 * 1024 };

// The machine is shared and noisy: each side runs several times, interleaved, and the best run
// of each is compared (the least disturbed measure of what the work costs); medians are kept too.
const cases = [
  { name: "tar.zst level 3", extension: "tar.zst", level: 3, tool: "zstd -q -T0 -3", runs: 7 },
  { name: "tar.xz preset 3", extension: "tar.xz", level: 3, tool: "xz -T0 -3", runs: 3 },
] as const;

export interface BenchCase {
  name: string;
  runs: number;
  /** Best seconds of our createBundle, measured inside its own process. */
  oursSeconds: number;
  oursMedianSeconds: number;
  /** Best seconds of our whole child process, Node start-up and module loading included. */
  oursProcessSeconds: number;
  /** Best seconds of `tar | compressor`, process start-up included. */
  referenceSeconds: number;
  referenceMedianSeconds: number;
  /** oursSeconds / referenceSeconds. */
  ratio: number;
  oursPeakRssBytes: number;
  oursSize: number;
  referenceSize: number;
  ok: boolean;
}

export interface CreateBenchResult {
  tree: { path: string; bytes: number; files: number };
  cases: BenchCase[];
  ok: boolean;
}

async function treeSize(root: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    files++;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return { bytes, files };
}

interface OursRun {
  seconds: number;
  processSeconds: number;
  maxRssBytes: number;
  size: number;
}

async function runOurs(tree: string, output: string, level: number): Promise<OursRun> {
  // the child loads the TypeScript sources through tsx, however this process was started
  const { stdout, seconds } = await timedRun(process.execPath, [
    "--import",
    "tsx",
    "--conditions=source",
    childScript,
    tree,
    output,
    String(level),
  ]);
  const report = JSON.parse(stdout) as { seconds: number; maxRssBytes: number; size: number };
  return { ...report, processSeconds: seconds };
}

async function runReference(
  tree: string,
  output: string,
  tool: string,
): Promise<{ seconds: number; size: number }> {
  const { seconds } = await timedRun("bash", [
    "-c",
    `set -o pipefail; tar -C "$1" -cf - . | ${tool} > "$2"`,
    "bench",
    tree,
    output,
  ]);
  return { seconds, size: (await stat(output)).size };
}

/** `runs` overrides the number of runs of every case. */
export async function runCreateBench(
  options: { runs?: number; benchDir?: string } = {},
): Promise<CreateBenchResult> {
  const benchDir = options.benchDir ?? join(repoRoot, ".bench");
  const tree = await mixedTree(benchDir);
  const outDir = join(benchDir, "out");
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  // warm the page cache, so that neither side pays for the first read of the tree
  await timedRun("bash", ["-c", 'tar -C "$1" -cf - . | cat > /dev/null', "bench", tree]);

  const results: BenchCase[] = [];
  for (const spec of cases) {
    const ours: OursRun[] = [];
    const reference: { seconds: number; size: number }[] = [];
    const oursOutput = join(outDir, `ours.${spec.extension}`);
    const referenceOutput = join(outDir, `reference.${spec.extension}`);
    const runs = options.runs ?? spec.runs;
    for (let index = 0; index < runs; index++) {
      await rm(referenceOutput, { force: true });
      reference.push(await runReference(tree, referenceOutput, spec.tool));
      await rm(oursOutput, { force: true });
      ours.push(await runOurs(tree, oursOutput, spec.level));
    }
    const oursSeconds = Math.min(...ours.map((r) => r.seconds));
    const referenceSeconds = Math.min(...reference.map((r) => r.seconds));
    const ratio = oursSeconds / referenceSeconds;
    const oursPeakRssBytes = Math.max(...ours.map((r) => r.maxRssBytes));
    results.push({
      name: spec.name,
      runs,
      oursSeconds,
      oursMedianSeconds: median(ours.map((r) => r.seconds)),
      oursProcessSeconds: Math.min(...ours.map((r) => r.processSeconds)),
      referenceSeconds,
      referenceMedianSeconds: median(reference.map((r) => r.seconds)),
      ratio,
      oursPeakRssBytes,
      oursSize: (ours[0] as OursRun).size,
      referenceSize: (reference[0] as { size: number }).size,
      ok: ratio <= goals.ratio && oursPeakRssBytes < goals.peakRssBytes,
    });
  }
  await rm(outDir, { recursive: true, force: true });
  return { tree: { path: tree, ...(await treeSize(tree)) }, cases: results, ok: results.every((c) => c.ok) };
}

const MiB = 1024 * 1024;

export function formatCreateBench(result: CreateBenchResult): string {
  const header = [
    "case",
    "runs",
    "ours s",
    "median",
    "process",
    "tar|tool s",
    "median",
    "ratio",
    "goal",
    "peak RSS",
    "goal",
    "ours MiB",
    "ref MiB",
    "",
  ];
  const rows = result.cases.map((c) => [
    c.name,
    String(c.runs),
    c.oursSeconds.toFixed(2),
    c.oursMedianSeconds.toFixed(2),
    c.oursProcessSeconds.toFixed(2),
    c.referenceSeconds.toFixed(2),
    c.referenceMedianSeconds.toFixed(2),
    c.ratio.toFixed(2),
    `<= ${goals.ratio}`,
    `${(c.oursPeakRssBytes / MiB).toFixed(0)} MiB`,
    `< ${goals.peakRssBytes / MiB} MiB`,
    (c.oursSize / MiB).toFixed(1),
    (c.referenceSize / MiB).toFixed(1),
    c.ok ? "ok" : "MISSED",
  ]);
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] ?? "").length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  const tree = `tree: ${result.tree.files} files, ${(result.tree.bytes / MiB).toFixed(0)} MiB`;
  const legend =
    "seconds: best of the runs (median beside); ours = createBundle inside its process, " +
    "process = the whole child process with Node start-up; ratio = best ours / best tar|tool";
  return [tree, line(header), ...rows.map(line), legend].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runCreateBench({ runs: process.argv[2] ? Number(process.argv[2]) : undefined });
  console.log(formatCreateBench(result));
  process.exitCode = result.ok ? 0 : 1;
}
