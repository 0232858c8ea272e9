import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { catalogBin } from "./catalog-project.js";

export interface DevProcess {
  /** `http://127.0.0.1:PORT/` from the "serving" line. */
  url: string;
  stderr(): string;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

/** Kills whatever a failed test left running. */
export function killLeftoverDevProcesses(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

/** Runs `pkg-catalog dev ARGS` and resolves once it prints its "serving" line; rejects with its
 *  stderr if it exits first. */
export async function startDev(
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<DevProcess> {
  const child = spawn(process.execPath, [catalogBin, "dev", ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  running.add(child);
  const exited = once(child, "exit").then(([code, signal]) => {
    running.delete(child);
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const serving = /^serving (http:\/\/\S+)$/m.exec(stderr);
      if (serving?.[1]) resolve(serving[1]);
    });
    void exited.then(({ code }) =>
      reject(new Error(`pkg-catalog dev exited ${code} before serving:\n${stderr}`)),
    );
  });
  return {
    url,
    stderr: () => stderr,
    async stop(signal = "SIGTERM") {
      child.kill(signal);
      return exited;
    },
  };
}
