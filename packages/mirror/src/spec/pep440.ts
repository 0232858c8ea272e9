import { isScalar } from "yaml";
import type { Field } from "./field.js";
import { readVersionText } from "./version-text.js";

/**
 * A public PEP 440 version as Python packaging accepts it, in any of its permitted spellings:
 * `[N!]N(.N)*[{a|b|rc|alpha|beta|c|pre|preview}N][.postN|-N][.devN]`, separators `.`, `-`, `_`
 * optional, case-insensitive. No leading `v` and no `+local` part: a spec bound names a published
 * version, and `+` cannot appear in a tag.
 */
const pep440Pattern = new RegExp(
  [
    "^(?:[0-9]+!)?",
    "[0-9]+(?:\\.[0-9]+)*",
    "(?:[-_.]?(?:alpha|a|beta|b|preview|pre|c|rc)[-_.]?[0-9]*)?",
    "(?:-[0-9]+|[-_.]?(?:post|rev|r)[-_.]?[0-9]*)?",
    "(?:[-_.]?dev[-_.]?[0-9]*)?$",
  ].join(""),
  "i",
);

/** Longest version accepted: an OCI tag holds at most 128 characters. */
const MAX_LENGTH = 128;

export function isPep440Version(text: string): boolean {
  return text.length <= MAX_LENGTH && pep440Pattern.test(text);
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
