import { ExitCode, PkgError } from "@pkg/common";
import type { Metadata } from "./model.js";
import { validateMetadata } from "./validate.js";

/** Parses and validates metadata.json text; errors (exit 65) name `fileName` and the line or key path. */
export function parseMetadata(text: string, fileName: string): Metadata {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new PkgError(ExitCode.Data, `${fileName}: ${describeSyntaxError(text, error)}`);
  }
  return validateMetadata(document, fileName);
}

/** V8's message, with the offset turned into line:column and without the echo of the input. */
function describeSyntaxError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position ([0-9]+)/.exec(message)?.[1];
  const reason = message
    .replace(/,? *".*" is not valid JSON$/s, "")
    .replace(/ in JSON at position [0-9]+.*$/s, "")
    .replace(/ at position [0-9]+.*$/s, "");
  if (position === undefined) return `not valid JSON: ${reason}`;
  const before = text.slice(0, Number(position));
  const line = before.split("\n").length;
  const column = Number(position) - before.lastIndexOf("\n");
  return `${line}:${column}: not valid JSON: ${reason}`;
}
