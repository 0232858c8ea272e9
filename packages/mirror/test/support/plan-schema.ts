import { runCli } from "@pkg/testkit";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { expect } from "vitest";
import { mirrorBin } from "./sync-run.js";

type Json = Record<string, unknown>;

/**
 * A copy of `schema` whose objects take no key they do not name. The published schema stays open
 * (consumers ignore unknown keys); tests hold pkg-mirror's own output to the keys it declares.
 */
function closedCopy(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closedCopy);
  if (typeof schema !== "object" || schema === null) return schema;
  const copy: Json = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, closedCopy(v)]));
  if (copy.type === "object" && copy.properties !== undefined && copy.additionalProperties === undefined)
    copy.additionalProperties = false;
  return copy;
}

/** Validates plan documents against `pkg-mirror schema plan` (as printed), held closed. */
export async function planSchemaValidator(): Promise<(document: unknown) => void> {
  const result = await runCli(mirrorBin, ["schema", "plan"]);
  expect(result.code, result.stderr).toBe(0);
  const published = JSON.parse(result.stdout) as Json;
  const ajv = () => new Ajv2020({ strict: true, strictTypes: false, strictRequired: false, allErrors: true });
  const open = ajv().compile(published);
  const closed = ajv().compile(closedCopy(published) as Json);
  const describe = (errors: ErrorObject[] | null | undefined) =>
    (errors ?? []).map((e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`).join("; ");
  return (document) => {
    expect(open(document), describe(open.errors)).toBe(true);
    expect(closed(document), describe(closed.errors)).toBe(true);
  };
}
