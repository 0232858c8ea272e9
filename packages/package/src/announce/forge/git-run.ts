import { spawn } from "node:child_process";
import { childEnvironment, ExitCode, PkgError } from "@pkg/common";

export interface GitResult {
  code: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitRunner {
  /** Runs `git args` in the work directory; resolves whatever the exit status. */
  run(
    args: string[],
    options?: { input?: Uint8Array | string; env?: Record<string, string> },
  ): Promise<GitResult>;
  /** Like run, but a non-zero exit throws (exit 1, with the tail of stderr). */
  ok(
    args: string[],
    options?: { input?: Uint8Array | string; env?: Record<string, string> },
  ): Promise<string>;
}

/**
 * Runs `git` from PATH in `cwd` with `env` (which carries the credential helper's settings; no
 * secret is ever an argument). A signal kills the child.
 */
export function gitRunner(cwd: string, env: NodeJS.ProcessEnv, signal?: AbortSignal): GitRunner {
  const run: GitRunner["run"] = (args, options = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn("git", args, {
        cwd,
        env: childEnvironment({ ...env, ...options.env }),
        stdio: ["pipe", "pipe", "pipe"],
        ...(signal ? { signal } : {}),
      });
      const out: Buffer[] = [];
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.once("error", (error: NodeJS.ErrnoException) => {
        if (signal?.aborted) reject(signal.reason);
        else if (error.code === "ENOENT") {
          reject(
            new PkgError(ExitCode.Unavailable, "git is not installed (the git transport runs git from PATH)"),
          );
        } else reject(new PkgError(ExitCode.Failed, `cannot run git: ${error.message}`, { cause: error }));
      });
      child.once("close", (code) => resolve({ code: code ?? -1, stdout: Buffer.concat(out), stderr }));
      child.stdin.on("error", () => {});
      child.stdin.end(options.input ?? "");
    });
  return {
    run,
    async ok(args, options) {
      const result = await run(args, options);
      if (result.code !== 0) {
        const tail = result.stderr.trim().split("\n").slice(-3).join("; ");
        throw new PkgError(ExitCode.Failed, `git ${args[0]} failed (exit ${result.code}): ${tail}`);
      }
      return result.stdout.toString("utf8");
    },
  };
}
