// One `package sync` of the full-sync benchmark's spec (from the built dist, as the bench runs it),
// for profiling: node flags after OUT_DIR (e.g. `--cpu-prof`, profiles to OUT_DIR; `--trace-gc`) go
// to the sync process. Writes OUT_DIR/timeline.log (every log line stamped with seconds since the
// start), stdout.log and time.txt (GNU time: peak RSS, wall, user, sys).
// With --noop first, the no-op re-run of the bench instead (500 versions x 6 platforms published
// once, untimed, which takes minutes): the node flags go to the re-run, which prints its figures.
// Usage: tsx --conditions=source scripts/bench/sync-profile.ts [--noop] OUT_DIR [node flags...]
import { spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { startRegistry, tempDir } from "@pkg/testkit";
import { repoRoot } from "./measure.js";
import { assetPattern, mirrorSpec, noopSync, PLATFORMS, specDir, startDiskForge, VERSIONS } from "./sync.js";
import { syncAssets } from "./sync-assets.js";

const noop = process.argv[2] === "--noop";
const [outArg, ...flags] = process.argv.slice(noop ? 3 : 2);
if (!outArg) throw new Error("usage: sync-profile.ts [--noop] OUT_DIR [node flags...]");
const out = resolve(outArg);
// the sync runs in a scratch directory removed afterwards: its profiles go to OUT_DIR unless told
const nodeFlags =
  flags.includes("--cpu-prof") && !flags.some((f) => f.startsWith("--cpu-prof-dir"))
    ? [...flags, `--cpu-prof-dir=${out}`]
    : flags;
await mkdir(out, { recursive: true });
if (noop) {
  process.stdout.write(`${JSON.stringify(await noopSync(nodeFlags), null, 2)}\n`);
  process.exit(0);
}
const assets = await syncAssets(join(repoRoot, ".bench"), VERSIONS, PLATFORMS);
const forge = await startDiskForge(assets);
const registry = await startRegistry();
const scratch = await tempDir("bench-sync-profile-");
try {
  const cwd = await specDir(scratch.path, mirrorSpec(registry.host, assetPattern));
  const stdoutFile = openSync(join(out, "stdout.log"), "w");
  const started = performance.now();
  const child = spawn(
    "/usr/bin/time",
    ["-f", "%M KiB %e s %U user %S sys", "-o", join(out, "time.txt"), process.execPath, ...nodeFlags]
      .concat([join(repoRoot, "packages/mirror/bin/pkg-mirror.js"), "package", "sync", "mirror.yml"])
      .concat(["--work-dir", join(cwd, "work")]),
    { cwd, env: { ...process.env, PKG_FORGEONE_API_URL: forge.url }, stdio: ["ignore", stdoutFile, "pipe"] },
  );
  // every log line stamped with the seconds since the start: the run's timeline
  const lines: string[] = [];
  createInterface({ input: child.stderr as NodeJS.ReadableStream }).on("line", (line) => {
    lines.push(`${((performance.now() - started) / 1000).toFixed(2).padStart(6)} ${line}`);
  });
  const [code] = (await once(child, "close")) as [number];
  closeSync(stdoutFile);
  await writeFile(join(out, "timeline.log"), `${lines.join("\n")}\n`);
  if (code !== 0) throw new Error(`sync exited ${code}; see ${out}/timeline.log`);
  process.stdout.write(`${((performance.now() - started) / 1000).toFixed(2)} s wall\n`);
} finally {
  await scratch.remove();
  await registry.stop();
  await forge.stop();
}
