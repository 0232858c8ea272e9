import { usageError } from "@pkg/common";

/** Parses repeated `--annotation KEY=VALUE` arguments; the value is verbatim and may hold `=`. */
export function parseAnnotations(args: readonly string[]): Record<string, string> {
  const annotations: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf("=");
    if (eq < 0) throw usageError(`--annotation ${JSON.stringify(arg)}: expected KEY=VALUE`);
    const key = arg.slice(0, eq);
    if (key.trim() === "") throw usageError(`--annotation ${JSON.stringify(arg)}: the key is empty`);
    if (/[\s]/.test(key))
      throw usageError(`--annotation ${JSON.stringify(arg)}: the key contains white space`);
    annotations[key] = arg.slice(eq + 1);
  }
  return annotations;
}
