import { isOciTag, isValidTagName } from "../grammar.js";

/** A tag the index never lists, though a registry may (the reader's grammar says which). */
export function isReservedTag(tag: string): boolean {
  return isOciTag(tag) && !isValidTagName(tag);
}

/** A tag the index may list: OCI tag grammar and not reserved. */
export function isListableTag(tag: string): boolean {
  return isValidTagName(tag);
}
