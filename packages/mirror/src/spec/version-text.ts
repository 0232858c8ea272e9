import { PkgError } from "@pkg/common";
import { parseVersion } from "@pkg/package";
import { isScalar } from "yaml";
import type { Field } from "./field.js";

/**
 * A version written in the spec (a string value, or a mapping key when `keyText` is given),
 * checked against the package version grammar. An unquoted number (`1.10`, which YAML reads as
 * 1.1) is refused with a hint to quote it: its text is already lost.
 */
export function readVersionText(field: Field, keyText?: string): string | undefined {
  const node = field.value;
  if (isScalar(node) && typeof node.value === "number") {
    return field.fail(`YAML reads this version as the number ${node.value}; write it in quotes`);
  }
  const text = keyText ?? field.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  try {
    parseVersion(text);
  } catch (error) {
    if (error instanceof PkgError) return field.fail(error.message);
    throw error;
  }
  return text;
}
