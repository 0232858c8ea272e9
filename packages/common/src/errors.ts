import { ExitCode } from "./exit-codes.js";
import { redact } from "./secrets.js";

/**
 * An error a user can cause or meet: it carries its exit code and a one-line message.
 * Deep code throws these; only `runMain` turns them into an exit status.
 */
export class PkgError extends Error {
  readonly exitCode: ExitCode;
  /** A stable machine-readable detail, for `--format json` reports (e.g. `unsupported_key_backend`). */
  readonly detail: string | undefined;

  constructor(exitCode: ExitCode, message: string, options: { cause?: unknown; detail?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PkgError";
    this.exitCode = exitCode;
    this.detail = options.detail;
  }
}

export const usageError = (message: string, detail?: string) =>
  new PkgError(ExitCode.Usage, message, { detail });
export const dataError = (message: string, detail?: string) =>
  new PkgError(ExitCode.Data, message, { detail });

export function isPkgError(error: unknown): error is PkgError {
  return error instanceof PkgError;
}

/** Node system errors that mean "the input the user named is not there or not readable". */
const inputErrnos: Record<string, string> = {
  ENOENT: "no such file or directory",
  ENOTDIR: "not a directory",
  EISDIR: "is a directory",
  EACCES: "permission denied",
  ELOOP: "too many symbolic links",
};

/**
 * The exit code and the single line a user sees for any thrown value.
 * Known errors keep their own message; system errors are named by path; anything else is
 * an internal failure (exit 1) whose first line is shown, never a stack trace.
 */
export function describeError(error: unknown): { exitCode: ExitCode; line: string } {
  if (error instanceof PkgError) return { exitCode: error.exitCode, line: oneLine(error.message) };
  const sys = error as NodeJS.ErrnoException | undefined;
  if (sys && typeof sys === "object" && typeof sys.code === "string") {
    const what = inputErrnos[sys.code];
    if (what) {
      const exitCode = sys.code === "EACCES" ? ExitCode.Permission : ExitCode.Data;
      return { exitCode, line: oneLine(sys.path ? `${sys.path}: ${what}` : what) };
    }
    if (sys.code === "ENOSPC" || sys.code === "EIO" || sys.code === "EROFS" || sys.code === "EMFILE") {
      return { exitCode: ExitCode.IoError, line: oneLine(`I/O error: ${sys.message}`) };
    }
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: ExitCode.Failed, line: oneLine(`internal error: ${message}`) };
}

/** Folds a message onto one line and removes every registered secret from it. */
export function oneLine(message: string): string {
  return redact(message)
    .replace(/\s*\n\s*/g, "; ")
    .trim();
}
