import { isJsonObject } from "@pkg/common";

/** Parses a document that must be a JSON object; `bad` makes the error for what it is not. */
export function parseJsonObject(text: string, bad: (why: string) => Error): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw bad("not JSON");
  }
  if (!isJsonObject(doc)) throw bad("not a JSON object");
  return doc;
}
