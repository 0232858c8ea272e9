import { type ChildProcess, spawn } from "node:child_process";
import { constants } from "node:os";
import { childEnvironment, ExitCode, PkgError } from "@pkg/common";

/** How a child ended: with an exit code, or killed by a signal. */
export type ChildOutcome = { code: number } | { signal: NodeJS.Signals };

/** Signals passed on to the child while it runs (a terminal's Ctrl-C, a supervisor's stop, a hang-up). */
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export interface RunOptions {
  /** The name the child sees as argv[0] (the command as the user wrote it). */
  argv0?: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Runs `path` with `args` on this process's stdin, stdout and stderr and resolves how it ended.
 * From just before it starts until it ends, SIGINT, SIGTERM and SIGHUP sent to this process are
 * passed to the child (and do not end this one), so the child decides what they mean; the
 * handlers go when it ends. A file that cannot be started is exit 65 when it is not executable,
 * else 69.
 */
export function runForwardingSignals(
  path: string,
  args: readonly string[],
  options: RunOptions,
): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    // listening before the child starts: a signal sent as soon as the child shows life (it may
    // print before spawn() returns here) must not meet this process's default handlers, which end
    // it; handlers run from the event loop, so `child` is set by the time one runs
    let child: ChildProcess | undefined;
    const handlers = FORWARDED.map((signal) => {
      const handler = () => {
        child?.kill(signal);
      };
      process.on(signal, handler);
      return [signal, handler] as const;
    });
    const dispose = () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    };
    child = spawn(path, args, {
      stdio: "inherit",
      env: childEnvironment(options.env),
      ...(options.argv0 === undefined ? {} : { argv0: options.argv0 }),
    });
    child.once("error", (error: NodeJS.ErrnoException) => {
      dispose();
      const code = error.code === "EACCES" || error.code === "ENOEXEC" ? ExitCode.Data : ExitCode.Unavailable;
      reject(new PkgError(code, `cannot run ${path}: ${error.message}`, { cause: error }));
    });
    child.once("exit", (code, signal) => {
      dispose();
      resolve(signal !== null ? { signal } : { code: code ?? ExitCode.Failed });
    });
  });
}

/** The exit status a shell reports for `outcome`: the code, or 128 + the signal's number. */
export function exitStatusOf(outcome: ChildOutcome): number {
  if ("code" in outcome) return outcome.code;
  return 128 + (constants.signals[outcome.signal] ?? 0);
}
