import { isScalar } from "yaml";
import { isVersion } from "../python/pep440.js";
import type { Field } from "./field.js";
import { readVersionText } from "./version-text.js";

/** Longest version accepted: an OCI tag holds at most 128 characters. */
const MAX_LENGTH = 128;

/**
 * A public PEP 440 version as Python packaging accepts it, in any of its permitted spellings (the
 * grammar is src/python/pep440.ts's). Not accepted here: a leading `v`, surrounding blanks and a `+local`
 * part, since a spec bound names a published version and `+` cannot appear in a tag.
 */
export function isPep440Version(text: string): boolean {
  return (
    text.length <= MAX_LENGTH &&
    !/^v/i.test(text) &&
    text.trim() === text &&
    !text.includes("+") &&
    isVersion(text)
  );
}

/** A version written in the spec that must be PEP 440 (a Python app's version bound). */
export function readPep440Version(field: Field): string | undefined {
  const node = field.value;
  if (isScalar(node) && typeof node.value === "string") {
    if (isPep440Version(node.value)) return node.value;
    return field.fail(`${JSON.stringify(node.value)} is not a PEP 440 version`);
  }
  // anything else is not text: this refuses it, with the quoting hint for a number
  return readVersionText(field);
}
