import { IndexFormatError } from "./errors.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The JSON value of a document given as its bytes, or the value itself when already parsed. */
export function documentValue(input: unknown, where: string): unknown {
  if (!(input instanceof Uint8Array)) return input;
  let text: string;
  try {
    text = utf8.decode(input);
  } catch {
    throw new IndexFormatError(where, "", "not valid UTF-8");
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new IndexFormatError(where, "", `not valid JSON (${(error as Error).message})`);
  }
}
