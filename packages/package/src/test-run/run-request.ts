import type { EnvOs } from "../exec/compose-env.js";
import { refuseShadowedHostCommands, resolveCommand } from "../exec/resolve-command.js";
import { type CapturedRun, runCaptured } from "./capture.js";

/** One program to run for a test: resolved as `pkg exec` resolves it, then run with its output captured. */
export interface RunRequest {
  /** The program: a name looked up in `packageDirs`, then on `hostPath`; or a path. */
  prog: string;
  args: string[];
  packageDirs: string[];
  hostPath: string | undefined;
  os: EnvOs;
  env: Record<string, string>;
  cwd: string;
  stdin?: string;
  timeoutMs?: number;
}

/**
 * Resolves and runs `request`. A name the package ships but cannot run is exit 65 naming the file,
 * never the host's program of the same name; one found nowhere is 69. So is a package whose
 * non-executable file a shell would pass over for the host's (`sh -c tool`): a test never goes
 * green on the host's program.
 */
export async function performRun(
  request: RunRequest,
  extra: {
    echo?: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream };
    forwardSignals?: boolean;
  } = {},
): Promise<CapturedRun> {
  const resolved = await resolveCommand(request.prog, request.packageDirs, request.hostPath, request.os);
  await refuseShadowedHostCommands(request.packageDirs, request.hostPath, request.os);
  return runCaptured(resolved.path, request.args, {
    env: request.env,
    cwd: request.cwd,
    argv0: request.prog,
    ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    ...extra,
  });
}
