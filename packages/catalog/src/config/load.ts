import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ConfigError } from "./errors.js";
import { parseCatalogConfig } from "./parse.js";
import type { CatalogConfig } from "./types.js";

/** The config file name commands look for in the working directory. */
export const DEFAULT_CONFIG_FILE = "catalog.config.json";

async function readConfigBytes(file: string): Promise<Uint8Array> {
  try {
    return await readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new ConfigError("MISSING_FILE", `${file} does not exist`);
    if (code === "EISDIR") throw new ConfigError("READ_ERROR", `${file} is a directory, not a file`);
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError("READ_ERROR", `${file} cannot be read: ${reason}`);
  }
}

/** V8 reports "... in JSON at position N"; a line and column are what an editor can jump to. */
function describeSyntaxError(text: string, message: string): string {
  const position = /\s*in JSON at position (\d+)/.exec(message);
  // V8 quotes (part of) the document after this marker; the location says more, in less space
  const reason = message.replace(/, ".*" is not valid JSON$/s, "");
  if (!position?.[1]) return reason;
  const before = text.slice(0, Number(position[1])).split("\n");
  const line = before.length;
  const column = (before.at(-1)?.length ?? 0) + 1;
  return `${reason.replace(position[0], "")} at line ${line} column ${column}`;
}

/** Parses JSON text; a UTF-8 byte-order mark (as some editors write) is ignored. */
function parseConfigText(bytes: Uint8Array, file: string): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ConfigError("INVALID_JSON", `${file} is not valid JSON: it is not UTF-8 text`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError("INVALID_JSON", `${file} is not valid JSON: ${describeSyntaxError(text, message)}`);
  }
}

/** Reads, parses and validates a `catalog.config.json` (no source is read). */
export async function loadCatalogConfig(file: string): Promise<CatalogConfig> {
  const absolute = resolve(file);
  const bytes = await readConfigBytes(absolute);
  return parseCatalogConfig(parseConfigText(bytes, absolute), absolute);
}
