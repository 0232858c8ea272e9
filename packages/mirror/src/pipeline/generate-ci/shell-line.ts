import { shQuote } from "@pkg/common";

/** Words a shell reads back as written: left bare so generated scripts stay readable. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** An argv as one POSIX shell command line, only the words that need it quoted. */
export function commandLine(argv: readonly string[]): string {
  return argv.map((word) => (PLAIN.test(word) ? word : shQuote(word))).join(" ");
}

/** `pkg-mirror package pipeline <args>`. */
export const pipelineLine = (args: readonly string[]) =>
  commandLine(["pkg-mirror", "package", "pipeline", ...args]);

/** A script as a block: lines joined, ending with a newline (rendered as a YAML literal block). */
export const script = (lines: readonly string[]) => `${lines.join("\n")}\n`;
