// `npm run bench -- startup`: what every call of a bin pays before its work — each bin's start-up
// against `node -e 0` — and what `pkg exec` of an installed package adds over running its binary
// directly and through its entrypoint launcher. Every round is shown; CPU is the child's user+sys.
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { spawnCollect, startRegistry } from "@pkg/testkit";
import { median, repoRoot } from "./measure.js";

const pkgBin = join(repoRoot, "packages/package/bin/pkg.js");
const mirrorBin = join(repoRoot, "packages/mirror/bin/pkg-mirror.js");
const catalogBin = join(repoRoot, "packages/catalog/bin/pkg-catalog.js");

/**
 * The goals. Start-up: as close to `node -e 0` as loading the command's own code allows — a bin's
 * `--help` within 1.6x `node -e 0` CPU here (commander and the command tree), a small push within
 * 4x (it loads the registry client, the bundle reader and zstd). `pkg exec` is one Node start-up
 * (its floor: `node -e 0`) plus loading and reading the store: at most 50 ms CPU beyond that floor
 * over running the binary directly. A launcher is a sh script (never Node): within 10 ms of the binary.
 */
export const startupGoal = { helpRatio: 1.6, pushRatio: 4, execOverheadMs: 50, launcherOverheadMs: 10 };

export interface Timing {
  wall: number;
  /** The child's user + system CPU seconds, as the shell's `times` reports them. */
  cpu: number;
}

export interface StartupCase {
  label: string;
  rounds: Timing[];
}

export interface StartupBenchResult {
  reference: StartupCase;
  bins: Array<StartupCase & { goalRatio: number }>;
  exec: { direct: StartupCase; launcher: StartupCase; offline: StartupCase; registry: StartupCase };
  launcherStartsNode: boolean;
  ok: boolean;
}

/** Runs a command once under sh, reading its CPU time from `times` (its children's line). */
async function timeOnce(argv: string[], env: Record<string, string> = {}): Promise<Timing> {
  const script = '"$@" >/dev/null 2>&1 || { echo "exit $?" >&2; exit 1; }; times';
  const started = performance.now();
  const result = await spawnCollect("bash", ["-c", script, "bench", ...argv], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
  const wall = (performance.now() - started) / 1000;
  if (result.code !== 0) throw new Error(`${argv.join(" ")}: ${result.stderr.trim()}`);
  const line = result.stdout.trim().split("\n")[1] ?? "";
  const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { wall, cpu: (seconds[0] ?? Number.NaN) + (seconds[1] ?? Number.NaN) };
}

async function timeCase(
  label: string,
  rounds: number,
  argv: (round: number) => string[],
  env?: Record<string, string>,
): Promise<StartupCase> {
  await timeOnce(argv(-1), env); // warm the page cache, not counted
  const timings: Timing[] = [];
  for (let round = 0; round < rounds; round++) timings.push(await timeOnce(argv(round), env));
  return { label, rounds: timings };
}

const cpuOf = (c: StartupCase) => median(c.rounds.map((r) => r.cpu));
const wallOf = (c: StartupCase) => median(c.rounds.map((r) => r.wall));

export async function runStartupBench(options: { rounds?: number } = {}): Promise<StartupBenchResult> {
  const rounds = options.rounds ?? 9;
  const dir = join(repoRoot, ".bench", "startup");
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, "tree", "bin"), { recursive: true });
  // a real executable as the package's binary: what `pkg exec` runs is then the same as direct
  await copyFile("/bin/true", join(dir, "tree", "bin", "hello"));
  await writeFile(
    join(dir, "input-metadata.json"),
    JSON.stringify({
      type: "bundle",
      version: 1,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a metadata placeholder, not a template
      env: [{ key: "PATH", type: "path", value: "${installPath}/bin", required: true }],
      entrypoints: [{ name: "hello", target: "hello" }],
    }),
  );
  const bundle = join(dir, "hello.tar.zst");
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const result = await spawnCollect(process.execPath, [pkgBin, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
    });
    if (result.code !== 0) throw new Error(`pkg ${args.join(" ")}: ${result.stderr}`);
    return result.stdout;
  };
  await run([
    "package",
    "create",
    join(dir, "tree"),
    "-o",
    bundle,
    "--metadata",
    join(dir, "input-metadata.json"),
  ]);

  const registry = await startRegistry();
  try {
    const reference = await timeCase("node -e 0", rounds, () => [process.execPath, "-e", "0"]);
    const node =
      (bin: string, ...args: string[]) =>
      () => [process.execPath, bin, ...args];
    const bins = [
      { ...(await timeCase("pkg --help", rounds, node(pkgBin, "--help"))), goalRatio: startupGoal.helpRatio },
      {
        ...(await timeCase("pkg package push (one small layer)", rounds, (round) => [
          process.execPath,
          pkgBin,
          "package",
          "push",
          "-i",
          `${registry.host}/bench/hello:1.0.${round + 1}`,
          "-p",
          "linux/amd64",
          bundle,
        ])),
        goalRatio: startupGoal.pushRatio,
      },
      {
        ...(await timeCase("pkg-mirror --help", rounds, node(mirrorBin, "--help"))),
        goalRatio: startupGoal.helpRatio,
      },
      {
        ...(await timeCase("pkg-catalog --help", rounds, node(catalogBin, "--help"))),
        goalRatio: startupGoal.helpRatio,
      },
    ];

    // the package installed once, then each way of running it
    const ref = `${registry.host}/bench/hello:1.0.0`;
    const pushed = JSON.parse(
      await run([
        "package",
        "push",
        "-i",
        ref,
        "-p",
        "linux/amd64",
        "--metadata",
        join(dir, "metadata.json"),
        bundle,
        "--format",
        "json",
      ]),
    ) as { manifestDigest: string };
    const home = join(dir, "home");
    const env = { PKG_HOME: home };
    await run(["exec", ref], env);
    const installed = join(home, "packages", "sha256", pushed.manifestDigest.slice("sha256:".length));
    const launcherFile = join(installed, "entrypoints", "hello");
    const launcherText = await readFile(launcherFile, "utf8");
    const exec = {
      direct: await timeCase("the binary directly", rounds, () => [
        join(installed, "content", "bin", "hello"),
      ]),
      launcher: await timeCase("its entrypoint launcher", rounds, () => [launcherFile]),
      offline: await timeCase("pkg exec --offline", rounds, node(pkgBin, "exec", "--offline", ref), env),
      registry: await timeCase("pkg exec (the tag resolved)", rounds, node(pkgBin, "exec", ref), env),
    };
    const launcherStartsNode = !launcherText.startsWith("#!/bin/sh\n") || /\bnode\b/.test(launcherText);
    const refCpu = cpuOf(reference);
    const binsOk = bins.every((b) => cpuOf(b) <= refCpu * b.goalRatio);
    const beyondNode = (c: StartupCase) => (cpuOf(c) - cpuOf(exec.direct) - refCpu) * 1000;
    const execOk =
      beyondNode(exec.offline) <= startupGoal.execOverheadMs &&
      beyondNode(exec.registry) <= startupGoal.execOverheadMs;
    const launcherOk =
      !launcherStartsNode &&
      (wallOf(exec.launcher) - wallOf(exec.direct)) * 1000 <= startupGoal.launcherOverheadMs;
    return { reference, bins, exec, launcherStartsNode, ok: binsOk && execOk && launcherOk };
  } finally {
    await registry.stop();
  }
}

const ms = (seconds: number) => `${(seconds * 1000).toFixed(0)} ms`;
const roundsOf = (c: StartupCase) =>
  c.rounds.map((r) => `${(r.cpu * 1000).toFixed(0)}/${(r.wall * 1000).toFixed(0)}`).join(" ");

function caseLine(c: StartupCase): string {
  return `  ${c.label}: cpu ${ms(cpuOf(c))}, wall ${ms(wallOf(c))} (rounds cpu/wall ms: ${roundsOf(c)})`;
}

export function formatStartupBench(result: StartupBenchResult): string {
  const refCpu = cpuOf(result.reference);
  const lines = [
    "start-up of each bin against node -e 0 (median of rounds; CPU = the process's user+sys)",
    caseLine(result.reference),
  ];
  for (const bin of result.bins) {
    const ratio = cpuOf(bin) / refCpu;
    lines.push(
      caseLine(bin),
      `    ${ratio.toFixed(2)}x node -e 0 CPU, +${ms(cpuOf(bin) - refCpu)} (goal <= ${bin.goalRatio}x) ${ratio <= bin.goalRatio ? "met" : "NOT MET"}`,
    );
  }
  const { direct, launcher, offline, registry } = result.exec;
  const over = (c: StartupCase) => cpuOf(c) - cpuOf(direct);
  const execLine = (c: StartupCase) => {
    const beyond = over(c) - refCpu;
    return `    overhead: cpu +${ms(over(c))}, ${ms(beyond)} beyond node -e 0 (goal <= ${startupGoal.execOverheadMs} ms) ${beyond * 1000 <= startupGoal.execOverheadMs ? "met" : "NOT MET"}`;
  };
  lines.push(
    "pkg exec of an installed package against running its binary directly",
    caseLine(direct),
    caseLine(launcher),
    `    launcher overhead: wall +${ms(wallOf(launcher) - wallOf(direct))} (goal <= ${startupGoal.launcherOverheadMs} ms, and no Node: ${result.launcherStartsNode ? "it starts Node, NOT MET" : "a sh script, met"})`,
    caseLine(offline),
    execLine(offline),
    caseLine(registry),
    execLine(registry),
  );
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runStartupBench();
  process.stdout.write(`${formatStartupBench(result)}\n`);
}
