import { readFile } from "node:fs/promises";
import { dirname, relative, resolve } from "node:path";
import { ExitCode, isInside } from "@pkg/common";
import { LineCounter, parseDocument } from "yaml";

import { type SpecDiagnostic, SpecError } from "./diagnostics.js";
import type { SpecSource } from "./field.js";

/** Bounds that keep a hostile or broken file from hanging or exhausting the loader. */
export const SPEC_LIMITS = {
  /** Bytes of one spec file. */
  maxFileBytes: 1024 * 1024,
  /** Alias expansions the parser follows (defeats "billion laughs" alias bombs). */
  maxAliasCount: 100,
  /** Nesting depth of mappings and lists. */
  maxDepth: 64,
} as const;

/**
 * Reads and parses one YAML file with positions. YAML syntax errors, duplicate keys, alias bombs,
 * oversized or too deeply nested files are data errors (exit 65) at their line and column.
 */
export async function readSpecSource(path: string): Promise<SpecSource> {
  const file = resolve(path);
  let text: string;
  try {
    const bytes = await readFile(file);
    if (bytes.length > SPEC_LIMITS.maxFileBytes) {
      throw fileError(displayPath(file), `larger than ${SPEC_LIMITS.maxFileBytes} bytes`);
    }
    text = bytes.toString("utf8");
  } catch (error) {
    if (error instanceof SpecError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw fileError(
      displayPath(file),
      code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : "cannot be read",
    );
  }
  return parseSpecText(text, displayPath(file), dirname(file));
}

/** How messages name a file: relative to the working directory when it lies below it. */
function displayPath(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel !== "" && isInside(process.cwd(), file) ? rel : file;
}

export function parseSpecText(text: string, file: string, dir: string): SpecSource {
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
  });
  const problems = [...doc.errors];
  if (problems.length > 0) {
    throw new SpecError(
      problems.map((problem): SpecDiagnostic => {
        const { line, col } = lines.linePos(problem.pos[0]);
        return {
          exitCode: ExitCode.Data,
          file,
          line,
          col,
          keyPath: "",
          message: yamlMessage(problem.message),
        };
      }),
    );
  }
  const source: SpecSource = { file, dir, doc, lines };
  const depth = nestingDepth(doc.contents);
  if (depth > SPEC_LIMITS.maxDepth)
    throw fileError(file, `nested deeper than ${SPEC_LIMITS.maxDepth} levels`);
  try {
    // resolving aliases here makes the parser enforce maxAliasCount before anyone walks the tree
    doc.toJS({ maxAliasCount: SPEC_LIMITS.maxAliasCount });
  } catch (error) {
    throw fileError(file, `YAML aliases: ${(error as Error).message}`);
  }
  return source;
}

function nestingDepth(node: unknown, depth = 0): number {
  if (depth > SPEC_LIMITS.maxDepth) return depth;
  const items = (node as { items?: unknown[] } | null)?.items;
  if (!Array.isArray(items)) return depth;
  let deepest = depth + 1;
  for (const item of items) {
    const pair = item as { key?: unknown; value?: unknown };
    const children = "value" in (pair ?? {}) ? [pair.value] : [item];
    for (const child of children) deepest = Math.max(deepest, nestingDepth(child, depth + 1));
  }
  return deepest;
}

/** The parser's first line, without its code-frame. */
function yamlMessage(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "");
}

function fileError(file: string, message: string): SpecError {
  return new SpecError([{ exitCode: ExitCode.Data, file, line: 1, col: 1, keyPath: "", message }]);
}
