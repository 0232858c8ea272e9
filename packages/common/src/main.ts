import { describeError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

/**
 * Runs a command's body and turns its outcome into the exit status: the one place where
 * errors become `prog: <one line>` on stderr. Set PKG_DEBUG=1 to see the stack as well.
 */
export async function runMain(prog: string, body: () => Promise<ExitCode | undefined>): Promise<void> {
  quietWhenReaderLeaves();
  try {
    const code = await body();
    process.exitCode = code ?? ExitCode.Ok;
  } catch (error) {
    const { exitCode, line } = describeError(error);
    process.stderr.write(`${prog}: ${line}\n`);
    if (process.env.PKG_DEBUG && error instanceof Error && error.stack)
      process.stderr.write(`${error.stack}\n`);
    process.exitCode = exitCode;
  }
}

/**
 * `pkg --help | head -1`: once the reader of stdout is gone there is nobody left to tell, so the
 * process ends quietly with the status it has, as Unix tools do, instead of an EPIPE stack trace.
 */
function quietWhenReaderLeaves(): void {
  if (process.stdout.listenerCount("error") > 0) return;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(typeof process.exitCode === "number" ? process.exitCode : ExitCode.Ok);
  });
}
