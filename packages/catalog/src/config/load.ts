import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { checkNamedPaths } from "./disk-paths.js";
import { findDuplicateKey, lineColumn } from "./duplicate-keys.js";
import { ConfigError } from "./errors.js";
import { parseConfigDocument } from "./parse.js";
import type { CatalogConfig } from "./types.js";

export { DEFAULT_CONFIG_FILE } from "./default-file.js";

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
  const { line, column } = lineColumn(text, Number(position[1]));
  return `${reason.replace(position[0], "")} at line ${line} column ${column}`;
}

/** A key written twice in one object is refused: parsers disagree on which of the two counts. */
function refuseDuplicateKeys(text: string, file: string): void {
  const duplicate = findDuplicateKey(text);
  if (duplicate === undefined) return;
  const at = lineColumn(text, duplicate.offset);
  const first = lineColumn(text, duplicate.firstOffset);
  throw new ConfigError(
    "INVALID_JSON",
    `${file}:${at.line}:${at.column}: duplicate key ${duplicate.keyPath} (first at line ${first.line} column ${first.column}); JSON readers disagree on which one counts`,
    duplicate.keyPath,
  );
}

/** Parses JSON text; a UTF-8 byte-order mark (as some editors write) is ignored; a key written
 *  twice in one object is refused. */
function parseConfigText(bytes: Uint8Array, file: string): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ConfigError("INVALID_JSON", `${file} is not valid JSON: it is not UTF-8 text`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ConfigError("INVALID_JSON", `${file} is not valid JSON: ${describeSyntaxError(text, message)}`);
  }
  refuseDuplicateKeys(text, file);
  return value;
}

/** Reads, parses and validates a `catalog.config.json`, then checks what its paths name on disk:
 *  css, brand.logo, docs and publicDir exist and are of their kind, and every path (sources too)
 *  stays inside the config directory by its real path. No source is read. */
export async function loadCatalogConfig(file: string): Promise<CatalogConfig> {
  const absolute = resolve(file);
  const bytes = await readConfigBytes(absolute);
  const { config, paths } = parseConfigDocument(parseConfigText(bytes, absolute), absolute);
  await checkNamedPaths(config.dir, paths);
  return config;
}
