import { matchVersion } from "@pkg/package";
import { isScalar } from "yaml";
import type { Field } from "./field.js";
import { isPep440Version } from "./pep440.js";
import { readVersionText } from "./version-text.js";

/**
 * A literal version bound read before the source is known: the tools' grammar or PEP 440 (a Python
 * app's). `versionGrammarProblem` then holds it to the grammar of the spec's source.
 */
export function readVersionLiteral(field: Field): string | undefined {
  const node = field.value;
  if (isScalar(node) && typeof node.value === "string" && isPep440Version(node.value)) return node.value;
  return readVersionText(field);
}

/** Why `text` is not a version of the source's grammar, or undefined when it is. */
export function versionGrammarProblem(text: string, python: boolean): string | undefined {
  if (python)
    return isPep440Version(text)
      ? undefined
      : `${JSON.stringify(text)} is not a PEP 440 version (a Python app's versions are)`;
  const version = matchVersion(text);
  if (typeof version !== "string" && version.build === undefined) return undefined;
  return `${JSON.stringify(text)} is a PEP 440 spelling; write <N>[.<N>[.<N>[.<N>]]][-<pre-release>]`;
}
