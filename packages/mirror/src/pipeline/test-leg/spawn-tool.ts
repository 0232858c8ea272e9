import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { childEnvironment, ExitCode, PkgError } from "@pkg/common";

/** A program and the arguments that come before the ones a caller adds. */
export interface ToolCommand {
  command: string;
  args: string[];
}

/**
 * The `pkg` a native leg runs: `PKG_BIN` when set (an executable), else the `pkg` bin of the
 * installed `@pkg/package` (its `bin/pkg.js`, run by this Node), so the mirror and the package
 * tool are the same release.
 */
export function pkgTool(env: NodeJS.ProcessEnv): ToolCommand {
  const override = env.PKG_BIN?.trim();
  if (override) return { command: override, args: [] };
  // the package's main module is <root>/dist/index.js; its bin is <root>/bin/pkg.js
  const main = createRequire(import.meta.url).resolve("@pkg/package");
  return { command: process.execPath, args: [join(dirname(dirname(main)), "bin", "pkg.js")] };
}

export interface ToolRun {
  /** The exit code; -1 when a signal ended the process. */
  code: number;
  signal: NodeJS.Signals | null;
  /** The last lines of its stderr (it is passed on as it comes). */
  stderrTail: string;
}

const TAIL_BYTES = 4096;

/**
 * Runs a program without a shell, its stdout and stderr passed on to our stderr as they come (what
 * a test prints is log, never the machine output on our stdout), `stdin` written to it when given
 * (else it reads end of file). A program that cannot be started is 69.
 */
export function runTool(
  tool: ToolCommand,
  args: readonly string[],
  options: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.command, [...tool.args, ...args], {
      cwd: options.cwd,
      env: childEnvironment(options.env ?? process.env),
      // fd 2 for its stdout: a test's output is a log line, never our --format json
      stdio: ["pipe", process.stderr, "pipe"],
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.stdin);
    let tail = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      process.stderr.write(chunk);
      tail = (tail + chunk).slice(-TAIL_BYTES);
    });
    child.once("error", (error) =>
      reject(
        new PkgError(ExitCode.Unavailable, `cannot run ${tool.command}: ${error.message}`, { cause: error }),
      ),
    );
    child.once("close", (code, signal) => resolve({ code: code ?? -1, signal, stderrTail: tail }));
  });
}
