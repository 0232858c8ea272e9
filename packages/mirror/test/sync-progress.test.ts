import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { shCommandLine } from "@pkg/common";
import { spawnCollect, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mirrorBin } from "./support/sync-run.js";

// The demo's sample upstream: two versions for two platforms, on loopback.
const examples = fileURLToPath(new URL("../../../examples/", import.meta.url));
const spec = join(examples, "hello-mirror/mirror.yml");
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

let work: TempDir;
let upstream: ChildProcess;
let upstreamUrl: string;

beforeAll(async () => {
  work = await tempDir("pkg-mirror-progress-");
  upstream = spawn(process.execPath, [join(examples, "hello-mirror/serve-upstream.mjs")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [first] = (await once(upstream.stdout as NodeJS.ReadableStream, "data")) as [Buffer];
  upstreamUrl = first.toString().split("\n")[0] as string;
});

afterAll(async () => {
  upstream.kill();
  await work.remove();
});

function syncArgs(name: string): string[] {
  const dir = join(work.path, name);
  return [
    mirrorBin,
    "package",
    "sync",
    spec,
    "--layout",
    join(dir, "layout"),
    "--work-dir",
    join(dir, "work"),
    "--repo-root",
    repoRoot,
  ];
}

function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== "CI") env[key] = value;
  return { ...env, PKG_FORGEONE_API_URL: upstreamUrl, HOME: "/nonexistent-pkg-test-home" };
}

describe("progress of package sync", () => {
  it("on a terminal, shows a live display of counts and running tasks, then gives the cursor back", async () => {
    // util-linux `script` runs the command on a real pseudo-terminal and copies what it draws
    const command = shCommandLine([process.execPath, ...syncArgs("tty")]);
    const run = await spawnCollect("script", ["-qfec", command, "/dev/null"], {
      env: { ...baseEnv(), TERM: "xterm-256color", COLUMNS: "120", LINES: "40" },
    });
    expect(run.code, run.stdout).toBe(0);
    const screen = run.stdout;
    expect(screen).toContain("\x1b[?25l");
    // line wrapping is never turned off: a long line logged above the display stays whole
    expect(screen).not.toContain("\x1b[?7l");
    expect(screen.lastIndexOf("\x1b[?25h")).toBeGreaterThan(screen.lastIndexOf("\x1b[?25l"));
    // the counts row, and rows of running pairs with what they are doing
    expect(screen).toMatch(/[0-4]\/(4|6) done, [1-6] running/);
    expect(screen).toMatch(
      /1\.[01]\.0 linux\/(amd|arm)64 (waiting to download|downloading|unpacking|bundling)/,
    );
    // what ended stays above the display
    for (const pair of ["1.0.0 linux/amd64", "1.0.0 linux/arm64", "1.1.0 linux/amd64", "1.1.0 linux/arm64"])
      expect(screen).toContain(`done ${pair} in `);
    expect(screen).toContain("4 published, 0 skipped, 0 failed");
  });

  it("in CI, writes plain lines only: one per task that ends, no redrawing", async () => {
    const run = await spawnCollect(process.execPath, syncArgs("ci"), { env: { ...baseEnv(), CI: "true" } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("\x1b");
    expect(run.stderr).not.toMatch(/unpacking|bundling/);
    const ended = run.stderr.split("\n").filter((line) => /^done /.test(line));
    expect(ended.map((line) => line.replace(/ in .*/, "")).sort()).toEqual([
      "done 1.0.0 linux/amd64",
      "done 1.0.0 linux/arm64",
      "done 1.1.0 linux/amd64",
      "done 1.1.0 linux/arm64",
      "done push 1.0.0",
      "done push 1.1.0",
    ]);
  });
});
