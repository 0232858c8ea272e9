import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { displayUrl } from "@pkg/net";
import { matchVersion } from "@pkg/package";
import { fetchOrFail } from "../sources/fetch-or-fail.js";
import { describeCommand, runGenerator } from "../sources/run-generator.js";
import type { SourceDeps } from "../sources/types.js";
import { isPep440Version } from "../spec/pep440.js";
import type { BoundVersion } from "../spec/versions.js";

/** Largest response body, generator output or file a version bound is read from. */
export const MAX_BOUND_BYTES = 64 * 1024;

export type BoundEdge = "min" | "max";

export interface BoundDeps extends Pick<SourceDeps, "http" | "specDir" | "env"> {
  /** The source is a Python app: bounds are PEP 440 versions, not the tools' grammar. */
  python?: boolean;
}

/**
 * The version a bound names: a literal as written, or the trimmed body of its https URL, the
 * trimmed stdout of its generator, the trimmed contents of its file. Fail-closed: every failure
 * (unreachable, non-2xx, over 64 KiB, generator non-zero or timeout, empty, not a version) is
 * exit 69 naming the edge and where the value came from; there is no unbounded fallback.
 */
export async function readBoundValue(edge: BoundEdge, bound: BoundVersion, deps: BoundDeps): Promise<string> {
  if (typeof bound === "string") return bound;
  const origin = describeOrigin(bound);
  const fail = (problem: string, cause?: unknown) =>
    new PkgError(ExitCode.Unavailable, `versions.${edge}: ${problem}`, { cause });
  let raw: Buffer;
  try {
    raw = await readRaw(bound, deps);
  } catch (error) {
    if (error instanceof PkgError) throw fail(error.message, error);
    throw error;
  }
  const text = raw.toString("utf8").trim();
  if (text === "") throw fail(`${origin} gave an empty value; expected one version`);
  const problem = grammarProblem(text, deps.python === true);
  if (problem) throw fail(`${origin} gave ${quote(text)}, which is not a version: ${problem}`);
  return text;
}

export function describeOrigin(bound: Exclude<BoundVersion, string>): string {
  if ("url" in bound) return displayUrl(bound.url);
  if ("generator" in bound) return describeCommand(bound.generator.command);
  return `file ${bound.file}`;
}

async function readRaw(bound: Exclude<BoundVersion, string>, deps: BoundDeps): Promise<Buffer> {
  if ("url" in bound) {
    return (await fetchOrFail(deps.http, bound.url, "version bound URL", MAX_BOUND_BYTES)).body;
  }
  if ("generator" in bound) {
    return runGenerator(bound.generator, { specDir: deps.specDir, env: deps.env, maxBytes: MAX_BOUND_BYTES });
  }
  const path = resolve(deps.specDir, bound.file);
  try {
    if ((await stat(path)).size > MAX_BOUND_BYTES) {
      throw new PkgError(ExitCode.Unavailable, `file ${path} is larger than ${MAX_BOUND_BYTES} bytes`);
    }
    return await readFile(path);
  } catch (error) {
    if (error instanceof PkgError) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new PkgError(ExitCode.Unavailable, `file ${path} cannot be read (${code})`, { cause: error });
  }
}

function grammarProblem(text: string, python: boolean): string | undefined {
  if (python) return isPep440Version(text) ? undefined : "expected a PEP 440 version";
  const version = matchVersion(text);
  if (typeof version === "string") return version;
  return version.build === undefined ? undefined : `carries a build suffix (_${version.build})`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
