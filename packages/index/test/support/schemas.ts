import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { schemaDir } from "./fixtures.js";

export type SchemaKind = "config" | "c-index" | "root" | "image-index";

// validateFormats off: ajv has no built-in "uri" format and no fixture turns on one.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const validators = new Map<SchemaKind, ValidateFunction>();

/** The ajv validator of one schema file of shared/fixtures/index-schema, read in place. */
export function schemaValidator(kind: SchemaKind): ValidateFunction {
  let validate = validators.get(kind);
  if (validate === undefined) {
    validate = ajv.compile(JSON.parse(readFileSync(join(schemaDir, `${kind}.schema.json`), "utf8")));
    validators.set(kind, validate);
  }
  return validate;
}

/** The schema an index-relative path is written under. */
export function schemaKindOf(relPath: string): SchemaKind | undefined {
  if (relPath === "config.json") return "config";
  if (relPath === "c/index.json") return "c-index";
  if (/^p\/[^/]+\/[^/]+\/o\/sha256\/[a-f0-9]{64}\.json$/.test(relPath)) return "image-index";
  if (/^p\/[^/]+\/[^/]+\.json$/.test(relPath)) return "root";
  return undefined;
}

/**
 * The schema's errors for a file's bytes ([] when valid). A root's name is checked with its label
 * read as `ocx.sh`, the label the published schema pins: the one intended difference between our
 * format and the schema (any lowercase DNS-like label names its index).
 */
export function schemaErrors(relPath: string, bytes: Uint8Array): string[] {
  const kind = schemaKindOf(relPath);
  if (kind === undefined) return [];
  const value = JSON.parse(Buffer.from(bytes).toString("utf8")) as Record<string, unknown>;
  if (kind === "root" && typeof value.name === "string")
    value.name = value.name.replace(/^[^/]+\//, "ocx.sh/");
  const validate = schemaValidator(kind);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${relPath}${e.instancePath}: ${e.message}`);
}
