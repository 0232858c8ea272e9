import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { type BoundedOutcome, runBounded } from "../process/bounded-run.js";
import type { GeneratorSpec } from "../spec/generator.js";

/** How a generator run ended when it produced no usable output. */
export type GeneratorFailure = "spawn" | "exit" | "timeout" | "too-large";

/** A generator that did not finish cleanly; `exitCode` is 69 (source unavailable). */
export class GeneratorError extends PkgError {
  constructor(
    readonly failure: GeneratorFailure,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(ExitCode.Unavailable, message, options);
    this.name = "GeneratorError";
  }
}

export interface GeneratorRunOptions {
  /** The spec's directory: `working_directory` resolves against it, and it is the default. */
  specDir: string;
  env: NodeJS.ProcessEnv;
  /** Largest stdout accepted; more kills the process and fails the run. */
  maxBytes: number;
}

/** How a command is named in messages: its argv as JSON, never a shell line. */
export function describeCommand(command: readonly string[]): string {
  return `generator ${JSON.stringify(command)}`;
}

/**
 * Runs a generator's command without a shell and returns its stdout. The process leads its own
 * process group so that a timeout or an oversized output kills everything it started, not only
 * the first process. A non-zero exit, a signal, a timeout or a command that cannot start throws
 * a `GeneratorError` naming the command; an empty stdout is returned as is (the caller decides).
 */
export async function runGenerator(generator: GeneratorSpec, options: GeneratorRunOptions): Promise<Buffer> {
  const name = describeCommand(generator.command);
  const cwd = resolve(options.specDir, generator.working_directory ?? ".");
  const isDir = await stat(cwd).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) {
    throw new PkgError(
      ExitCode.Data,
      `${name}: working directory ${cwd} does not exist or is not a directory`,
    );
  }
  const [file = "", ...args] = generator.command;
  let outcome: BoundedOutcome;
  try {
    outcome = await runBounded(file, args, {
      cwd,
      env: options.env,
      timeoutMs: generator.timeout_seconds * 1000,
      maxStdoutBytes: options.maxBytes,
    });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "command not found" : String(error);
    throw new GeneratorError("spawn", `${name} cannot start: ${reason}`, { cause: error });
  }
  if (outcome.ended === "timeout") {
    throw new GeneratorError(
      "timeout",
      `${name} timed out after ${generator.timeout_seconds} s and was killed`,
    );
  }
  if (outcome.ended === "too-large") {
    throw new GeneratorError("too-large", `${name} wrote more than ${options.maxBytes} bytes and was killed`);
  }
  if (outcome.code !== 0) {
    const how =
      outcome.code === null ? `was killed by ${outcome.signal}` : `exited with status ${outcome.code}`;
    const last = lastLine(outcome.stderrTail);
    throw new GeneratorError("exit", `${name} ${how}${last ? `: ${last}` : ""}`);
  }
  return outcome.stdout;
}

function lastLine(text: string): string {
  const lines = text.split("\n").map((line) => line.trim());
  return lines.filter((line) => line !== "").at(-1) ?? "";
}
