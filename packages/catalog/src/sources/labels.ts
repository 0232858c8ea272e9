import { ExitCode, PkgError } from "@pkg/common";
import { ConfigError } from "../config/errors.js";
import type { SourceEntry } from "../config/types.js";

/** The label of one source: the explicit one, which every package name must start with, or the one
 *  all its package names agree on. `prefixes` are the first segments of its package names. */
export function resolveLabel(source: SourceEntry, prefixes: readonly string[]): string {
  const key = `sources[${source.index}].label`;
  const distinct = [...new Set(prefixes)].sort();
  if (source.label !== undefined) {
    const other = distinct.find((prefix) => prefix !== source.label);
    if (other !== undefined) {
      throw new ConfigError(
        "LABEL_PREFIX_MISMATCH",
        `${key}: label ${JSON.stringify(source.label)} does not match the first segment ${JSON.stringify(other)} of the index's package names`,
        key,
      );
    }
    return source.label;
  }
  const [only, ...more] = distinct;
  if (only === undefined) {
    throw new PkgError(
      ExitCode.Data,
      `sources[${source.index}]: the index has no packages to derive a label from; set ${key}`,
    );
  }
  if (more.length > 0) {
    throw new PkgError(
      ExitCode.Data,
      `sources[${source.index}]: the index's package names start with different labels (${distinct.join(", ")}); one index has one label`,
    );
  }
  return only;
}

/** Refuses two sources ending with the same label, explicit or derived. */
export function checkLabelsUnique(labels: readonly { label: string; sourceIndex: number }[]): void {
  const seen = new Map<string, number>();
  for (const { label, sourceIndex } of labels) {
    const first = seen.get(label);
    if (first !== undefined) {
      const key = `sources[${sourceIndex}].label`;
      throw new ConfigError(
        "LABEL_CONFLICT",
        `${key}: label ${JSON.stringify(label)} is already the label of sources[${first}]`,
        key,
      );
    }
    seen.set(label, sourceIndex);
  }
}
