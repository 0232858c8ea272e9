import { shQuote } from "@pkg/common";

/** Words a shell reads back as written: left bare so generated scripts stay readable. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A shell variable's value as one word (`"$VERSION"`): only the renderers make one, never a spec's text. */
export interface ShellVariable {
  variable: string;
}

export const shellVariable = (name: string): ShellVariable => {
  if (!/^[A-Z_][A-Z0-9_]*$/.test(name)) throw new Error(`not a shell variable name: ${name}`);
  return { variable: name };
};

/** A word of a command line: literal text (quoted when it needs it), or a variable's value. */
export type Word = string | ShellVariable;

/** An argv as one POSIX shell command line, only the words that need it quoted. */
export function commandLine(argv: readonly Word[]): string {
  return argv
    .map((word) =>
      typeof word !== "string" ? `"$${word.variable}"` : PLAIN.test(word) ? word : shQuote(word),
    )
    .join(" ");
}

/** `pkg-mirror package pipeline <args>`. */
export const pipelineLine = (args: readonly Word[]) =>
  commandLine(["pkg-mirror", "package", "pipeline", ...args]);

/** A script as a block: lines joined, ending with a newline (rendered as a YAML literal block). */
export const script = (lines: readonly string[]) => `${lines.join("\n")}\n`;
