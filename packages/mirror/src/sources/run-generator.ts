import { spawn } from "node:child_process";
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { childEnvironment, ExitCode, PkgError } from "@pkg/common";
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

/** Bytes of stderr kept for the failure message (its last line is shown). */
const STDERR_TAIL_BYTES = 4096;

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
  const child = spawn(file, args, {
    cwd,
    env: childEnvironment(options.env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
    shell: false,
  });

  const stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let stderr = Buffer.alloc(0);
  let ended: GeneratorFailure | undefined;
  const killGroup = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group is already gone
    }
  };
  const killTree = (why: GeneratorFailure) => {
    ended ??= why;
    killGroup();
  };
  child.stdout.on("data", (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    if (stdoutBytes > options.maxBytes) killTree("too-large");
    else stdout.push(chunk);
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr = Buffer.concat([stderr, chunk]);
    if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
  });
  const timer = setTimeout(() => killTree("timeout"), generator.timeout_seconds * 1000);

  let status: { code: number | null; signal: NodeJS.Signals | null };
  try {
    status = await new Promise((resolveClose, reject) => {
      child.once("error", reject);
      child.once("close", (code, signal) => resolveClose({ code, signal }));
    });
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "command not found" : String(error);
    throw new GeneratorError("spawn", `${name} cannot start: ${reason}`, { cause: error });
  } finally {
    clearTimeout(timer);
    // whatever the generator left running in its group goes with it
    killGroup();
  }

  if (ended === "timeout") {
    throw new GeneratorError(
      "timeout",
      `${name} timed out after ${generator.timeout_seconds} s and was killed`,
    );
  }
  if (ended === "too-large") {
    throw new GeneratorError("too-large", `${name} wrote more than ${options.maxBytes} bytes and was killed`);
  }
  if (status.code !== 0) {
    const how = status.code === null ? `was killed by ${status.signal}` : `exited with status ${status.code}`;
    const last = lastLine(stderr.toString("utf8"));
    throw new GeneratorError("exit", `${name} ${how}${last ? `: ${last}` : ""}`);
  }
  return Buffer.concat(stdout);
}

function lastLine(text: string): string {
  const lines = text.split("\n").map((line) => line.trim());
  return lines.filter((line) => line !== "").at(-1) ?? "";
}
