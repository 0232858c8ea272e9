import { readFile } from "node:fs/promises";
import { ExitCode, isJsonObject, type Logger, PkgError } from "@pkg/common";
import { parseJsonObject } from "./json-object.js";
import { PLAN_SCHEMA_VERSION, type PlanDocument } from "./plan-document.js";

/**
 * Reads a plan.json for a later job. A newer `schema_version` is read with a warning (keys are
 * only ever added within a version; unknown ones are ignored); a document that is not a plan is
 * exit 65 naming the file and the first problem.
 */
export async function readPlanDocument(path: string, log: Logger): Promise<PlanDocument> {
  const bad = (why: string) => new PkgError(ExitCode.Data, `${path}: not a plan.json: ${why}`);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new PkgError(
      code === "ENOENT" ? ExitCode.Usage : ExitCode.Data,
      `${path}: cannot read the plan (${code ?? String(error)})`,
    );
  }
  const doc = parseJsonObject(text, bad);
  const version = doc.schema_version;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1)
    throw bad("no schema_version");
  if (version > PLAN_SCHEMA_VERSION)
    log.warn(
      `${path}: schema_version ${version} is newer than this pkg-mirror's (${PLAN_SCHEMA_VERSION}); reading the keys it knows`,
    );
  if (typeof doc.target !== "string") throw bad('"target" is not a string');
  if (!Array.isArray(doc.versions)) throw bad('"versions" is not a list');
  for (const [i, v] of doc.versions.entries()) {
    if (!isJsonObject(v) || typeof v.version !== "string" || typeof v.source_version !== "string")
      throw bad(`versions[${i}] lacks version or source_version`);
    if (!Array.isArray(v.platforms) || !Array.isArray(v.assets))
      throw bad(`versions[${i}] lacks platforms or assets`);
  }
  if (!isJsonObject(doc.legs)) throw bad('"legs" is not an object');
  return doc as unknown as PlanDocument;
}
