import { spawn } from "node:child_process";
import { ExitCode, PkgError } from "@pkg/common";

export interface CommandResult {
  stdout: string;
  stderr: string;
}

export interface CompletedProcess extends CommandResult {
  /** The exit code, or -1 when a signal ended the process. */
  code: number;
  signal: NodeJS.Signals | null;
}

/** Runs a command to completion and collects its output, whatever its exit status; `input`, when
 *  given, is written to its stdin. */
export function spawnCollect(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CompletedProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    // without input the command reads an immediate end of file; one that exits before reading its
    // input is not an error of ours
    child.stdin.on("error", () => {});
    child.stdin.end(options.input);
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
    child.once("close", (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr }));
  });
}

/** Runs a short-lived command to completion; a non-zero exit throws with the tail of its stderr. */
export async function runCommand(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  const { code, signal, stdout, stderr } = await spawnCollect(command, args, options);
  if (code === 0) return { stdout, stderr };
  const status = signal ? `signal ${signal}` : `exit ${code}`;
  throw new PkgError(ExitCode.Failed, `${command} failed (${status}): ${stderr.trim().slice(-500)}`);
}
