import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { ExitCode, PkgError } from "@pkg/common";
import { trackPid, untrackPid } from "./cleanup.js";

const TERM_GRACE_MS = 3_000;
const SETPRIV = "/usr/bin/setpriv";

/**
 * A spawned process that dies with the thread that started it. The exit handler does not run
 * when a test runner ends a worker thread, so the kernel's parent-death signal is what keeps
 * a failing test from leaking the process: `setpriv` sets it, then execs the command, so the
 * PID is the command's own.
 */
export async function spawnTracked(
  command: string,
  args: string[],
  options: SpawnOptions,
): Promise<ChildProcess> {
  const child = existsSync(SETPRIV)
    ? spawn(SETPRIV, ["--pdeathsig", "KILL", "--", command, ...args], options)
    : spawn(command, args, options);
  const pid = await new Promise<number>((resolve, reject) => {
    child.once("spawn", () => resolve(child.pid as number));
    child.once("error", (error) =>
      reject(
        new PkgError(ExitCode.Unavailable, `cannot start ${command}: ${error.message}`, { cause: error }),
      ),
    );
  });
  trackPid(pid);
  child.once("exit", () => untrackPid(pid));
  return child;
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then SIGKILL if the process has not exited within a bounded wait; resolves once it is gone. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), TERM_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(timer);
  }
}
