import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { once } from "node:events";
import { ExitCode, PkgError } from "@pkg/common";
import { trackPid, untrackPid } from "./cleanup.js";

const TERM_GRACE_MS = 3_000;

/** A spawned process that the exit handler kills if nobody stops it. */
export async function spawnTracked(command: string, args: string[], options: SpawnOptions): Promise<ChildProcess> {
  const child = spawn(command, args, options);
  const pid = await new Promise<number>((resolve, reject) => {
    child.once("spawn", () => resolve(child.pid as number));
    child.once("error", (error) =>
      reject(new PkgError(ExitCode.Unavailable, `cannot start ${command}: ${error.message}`, { cause: error })),
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
