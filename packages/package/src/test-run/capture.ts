import { spawn } from "node:child_process";
import { childEnvironment, ExitCode, PkgError } from "@pkg/common";
import { exitStatusOf } from "../exec/run.js";

/** Each of stdout and stderr is kept up to this many bytes; past it the rest is dropped and `truncated` set. */
export const OUTPUT_CAP_BYTES = 10 * 1024 * 1024;

/** How a captured run ended, as `--format json` reports it and `pkg.run` returns it. */
export interface CapturedRun {
  /** The exit code, or 128 + the signal's number when a signal ended it. */
  exit_code: number;
  stdout: string;
  stderr: string;
  duration_ms: number;
  /** Some output was past the cap and is not in `stdout`/`stderr`. */
  truncated: boolean;
  /** Killed at its deadline. */
  timed_out: boolean;
}

export interface CaptureOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  argv0?: string;
  /** Written to the child's stdin, then closed; without it the child's stdin is empty. */
  stdin?: string;
  /** Killed after this long (status `timeout`). */
  timeoutMs?: number;
  /** Pass SIGINT, SIGTERM and SIGHUP sent to this process on to the child (not possible on a worker thread). */
  forwardSignals?: boolean;
  /** Also passed on as it comes (the text form of `pkg package test`). */
  echo?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
  capBytes?: number;
}

const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Runs `path` with `args`, capturing stdout and stderr (each up to the cap, UTF-8 with invalid
 * bytes replaced). At the deadline the child is killed (SIGKILL) and the run ends then, even if
 * something it started still holds its output open. A file that cannot be started is exit 65 when
 * it is not executable, else 69.
 */
export function runCaptured(
  path: string,
  args: readonly string[],
  options: CaptureOptions,
): Promise<CapturedRun> {
  const cap = options.capBytes ?? OUTPUT_CAP_BYTES;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(path, args, {
      cwd: options.cwd,
      env: childEnvironment(options.env),
      stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      ...(options.argv0 === undefined ? {} : { argv0: options.argv0 }),
    });
    const { stdout: out, stderr: err } = child;
    // both are pipes by the stdio given above
    if (out === null || err === null) throw new Error("spawn gave no output pipes");
    let truncated = false;
    const collect = (stream: NodeJS.ReadableStream, echo: NodeJS.WritableStream | undefined) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        echo?.write(chunk);
        if (size >= cap) {
          truncated = true;
          return;
        }
        const kept = chunk.length > cap - size ? chunk.subarray(0, cap - size) : chunk;
        if (kept !== chunk) truncated = true;
        chunks.push(kept);
        size += kept.length;
      });
      return () => Buffer.concat(chunks).toString("utf8");
    };
    const stdout = collect(out, options.echo?.stdout);
    const stderr = collect(err, options.echo?.stderr);
    if (options.stdin !== undefined && child.stdin) {
      // a child that exits without reading its input closes the pipe: not an error of the run
      child.stdin.on("error", () => undefined);
      child.stdin.end(options.stdin);
    }
    let timedOut = false;
    let exited = false;
    // what the child started may still hold the pipes: past the deadline, stop reading them
    const stopReading = () => {
      out.destroy();
      err.destroy();
    };
    child.once("exit", () => {
      exited = true;
      if (timedOut) stopReading();
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            if (exited) stopReading();
            else child.kill("SIGKILL");
          }, options.timeoutMs);
    const handlers = (options.forwardSignals ? FORWARDED : []).map((signal) => {
      const handler = () => {
        child.kill(signal);
      };
      process.on(signal, handler);
      return [signal, handler] as const;
    });
    const dispose = () => {
      if (timer !== undefined) clearTimeout(timer);
      for (const [signal, handler] of handlers) process.off(signal, handler);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      dispose();
      const code = error.code === "EACCES" || error.code === "ENOEXEC" ? ExitCode.Data : ExitCode.Unavailable;
      reject(new PkgError(code, `cannot run ${path}: ${error.message}`, { cause: error }));
    });
    child.once("close", (code, signal) => {
      dispose();
      resolve({
        exit_code: exitStatusOf(signal !== null ? { signal } : { code: code ?? ExitCode.Failed }),
        stdout: stdout(),
        stderr: stderr(),
        duration_ms: Math.round(performance.now() - started),
        truncated,
        timed_out: timedOut,
      });
    });
  });
}
