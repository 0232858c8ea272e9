import { spawn } from "node:child_process";
import { ExitCode, PkgError } from "@pkg/common";

export interface CommandResult {
  stdout: string;
  stderr: string;
}

/** Runs a short-lived command to completion; a non-zero exit throws with the tail of its stderr. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.once("error", (error) =>
      reject(new PkgError(ExitCode.Unavailable, `cannot run ${command}: ${error.message}`, { cause: error })),
    );
    child.once("close", (code, signal) => {
      if (code === 0) resolve({ stdout, stderr });
      else {
        const status = signal ? `signal ${signal}` : `exit ${code}`;
        reject(new PkgError(ExitCode.Failed, `${command} failed (${status}): ${stderr.trim().slice(-500)}`));
      }
    });
  });
}
