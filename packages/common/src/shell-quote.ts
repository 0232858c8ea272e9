/** A word the POSIX shell reads back exactly: single-quoted, a `'` written as `'\''`. */
export function shQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** An argv as one POSIX shell command line, every word quoted. */
export function shCommandLine(argv: readonly string[]): string {
  return argv.map(shQuote).join(" ");
}
