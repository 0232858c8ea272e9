import type { CommandUnknownOpts } from "@commander-js/extra-typings";
import { CommanderError } from "commander";
import { usageError } from "./errors.js";
import { runMain } from "./main.js";

/**
 * Parses argv with a commander program and runs the chosen action under `runMain`:
 * commander's own complaints (unknown option, missing argument) become one-line usage errors
 * (exit 64); `--help` and `--version` exit 0.
 */
export async function runCli(program: CommandUnknownOpts, argv: readonly string[]): Promise<void> {
  configureTree(program);
  await runMain(program.name(), async () => {
    try {
      await program.parseAsync(argv as string[]);
    } catch (error) {
      if (error instanceof CommanderError) {
        if (error.exitCode === 0) return 0;
        throw usageError(error.message.replace(/^error: /, ""));
      }
      throw error;
    }
  });
}

function configureTree(command: CommandUnknownOpts): void {
  command.exitOverride();
  // commander prints its own error before throwing; runMain prints the one line instead
  command.configureOutput({
    writeErr: (text) => (text.startsWith("error:") ? undefined : process.stderr.write(text)),
  });
  command.showSuggestionAfterError(true);
  for (const sub of command.commands) configureTree(sub);
}

/** `--format text|json`, shared by every command with machine output. */
export type OutputFormat = "text" | "json";

export function parseFormat(value: string): OutputFormat {
  if (value === "text" || value === "json") return value;
  throw usageError(`--format must be text or json, not ${JSON.stringify(value)}`);
}

/** Parses a non-negative integer option, naming the option on error. */
export function integerOption(name: string, min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value)) throw usageError(`${name} takes a whole number, not ${JSON.stringify(value)}`);
    const n = Number(value);
    if (n < min || n > max) throw usageError(`${name} must be between ${min} and ${max}, not ${n}`);
    return n;
  };
}

/** Writes a machine-readable result to stdout as one JSON document. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
