import { describeError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

/**
 * Runs a command's body and turns its outcome into the exit status: the one place where
 * errors become `prog: <one line>` on stderr. Set PKG_DEBUG=1 to see the stack as well.
 */
export async function runMain(prog: string, body: () => Promise<ExitCode | undefined>): Promise<void> {
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
