import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { spawnTracked, stopChild } from "./child-process.js";
import { goTool } from "./go-tool.js";
import { tempDir } from "./temp-dir.js";

const READY_TIMEOUT_MS = 15_000;

export interface RunningReferrersRegistry {
  /** `127.0.0.1:PORT`, the authority used in image references. */
  host: string;
  url: string;
  storageDir: string;
  pid: number;
  /** Kills the registry by PID, waits for it to exit and removes its storage; idempotent. */
  stop(): Promise<void>;
}

/** The `listening on HOST:PORT` line the registry prints once it accepts connections. */
function listeningAddress(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => fail(`did not start within ${READY_TIMEOUT_MS} ms`), READY_TIMEOUT_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(
        new PkgError(ExitCode.Unavailable, `referrers-registry ${why}: ${seen.trim() || "(no output)"}`),
      );
    };
    child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = /listening on (\S+)/.exec(seen);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString("utf8");
    });
    child.once("exit", (code) => fail(`exited (${code})`));
  });
}

/**
 * A registry with the OCI 1.1 referrers API (go-containerregistry's, built by the test command as
 * `referrers-registry`) on a free loopback port, with blobs in a temporary directory; it answers a
 * manifest PUT naming a subject with `OCI-Subject`. Stopped by PID.
 */
export async function startReferrersRegistry(): Promise<RunningReferrersRegistry> {
  const binary = goTool("referrers-registry");
  const dir = await tempDir("referrers-registry-");
  const storageDir = join(dir.path, "blobs");
  let child: ChildProcess | undefined;
  try {
    child = await spawnTracked(binary, ["-addr", "127.0.0.1:0", "-blobs", storageDir, "-quiet"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    const host = await listeningAddress(child);
    const running = child;
    let stopping: Promise<void> | undefined;
    return {
      host,
      url: `http://${host}`,
      storageDir,
      pid: running.pid as number,
      stop() {
        stopping ??= stopChild(running).then(() => dir.remove());
        return stopping;
      },
    };
  } catch (error) {
    if (child) await stopChild(child);
    await dir.remove();
    throw error;
  }
}
