import type { Metadata } from "./model.js";
import { validateMetadata } from "./validate.js";

/**
 * The config blob bytes: the validated model as compact JSON (no spaces, no trailing newline),
 * object keys sorted at every level by code unit, arrays in their order. Equal models give equal
 * bytes, so the blob's digest is reproducible.
 */
export function serializeMetadata(metadata: Metadata): Buffer {
  return Buffer.from(sortedJson(validateMetadata(metadata, "metadata")), "utf8");
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${sortedJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
