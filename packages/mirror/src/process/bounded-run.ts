import { spawn } from "node:child_process";
import { childEnvironment } from "@pkg/common";

export interface BoundedRunOptions {
  cwd?: string;
  /** The child's environment; the signing secrets are taken out of it (`childEnvironment`). */
  env: NodeJS.ProcessEnv;
  /** Written to the child's stdin; without it the child reads end of file. */
  stdin?: string;
  timeoutMs: number;
  /** Largest stdout accepted; more kills the process group. */
  maxStdoutBytes?: number;
}

/** How a bounded run ended: on its own, or killed for its time or its output. */
export type BoundedOutcome =
  | {
      ended: "exited";
      code: number | null;
      signal: NodeJS.Signals | null;
      stdout: Buffer;
      stderrTail: string;
    }
  | { ended: "timeout"; stderrTail: string }
  | { ended: "too-large"; stderrTail: string };

/** Bytes of stderr kept for messages. */
const STDERR_TAIL_BYTES = 8192;

/**
 * Runs a program without a shell as the leader of its own process group, so that a timeout or an
 * oversized output kills everything it started, and whatever it leaves running in its group is
 * killed when it exits. A program that cannot start rejects with the spawn error (its `code` is
 * `ENOENT` when it is not found); the caller names it.
 */
export function runBounded(
  file: string,
  args: readonly string[],
  options: BoundedRunOptions,
): Promise<BoundedOutcome> {
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: childEnvironment(options.env),
    stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    detached: true,
    shell: false,
  });
  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = Buffer.alloc(0);
  let killedFor: "timeout" | "too-large" | undefined;
  const killGroup = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group is already gone
    }
  };
  const kill = (why: "timeout" | "too-large") => {
    killedFor ??= why;
    killGroup();
  };
  child.stdout?.on("data", (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (options.maxStdoutBytes !== undefined && stdoutBytes > options.maxStdoutBytes) kill("too-large");
    else stdout.push(chunk);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = Buffer.concat([stderr, chunk]);
    if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
  });
  if (options.stdin !== undefined) {
    // a program that exits before reading its stdin is judged by its exit status
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(options.stdin);
  }
  const timer = setTimeout(() => kill("timeout"), options.timeoutMs);
  return new Promise<BoundedOutcome>((resolve, reject) => {
    child.once("error", (error) => {
      clearTimeout(timer);
      killGroup();
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      killGroup();
      const stderrTail = stderr.toString("utf8");
      if (killedFor !== undefined) resolve({ ended: killedFor, stderrTail });
      else resolve({ ended: "exited", code, signal, stdout: Buffer.concat(stdout), stderrTail });
    });
  });
}
