import { rmSync } from "node:fs";

/**
 * Everything the harness starts or creates is registered here, so that one `exit` handler can
 * kill what a failing test left running and delete what it left on disk.
 */
const pids = new Set<number>();
const dirs = new Set<string>();
let handlerInstalled = false;

function cleanUpNow(): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  pids.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

function installHandler(): void {
  if (handlerInstalled) return;
  handlerInstalled = true;
  process.on("exit", cleanUpNow);
}

export function trackPid(pid: number): void {
  installHandler();
  pids.add(pid);
}

export function untrackPid(pid: number): void {
  pids.delete(pid);
}

export function trackDir(path: string): void {
  installHandler();
  dirs.add(path);
}

export function untrackDir(path: string): void {
  dirs.delete(path);
}
