import type { VNode } from "preact";
import { renderToString } from "preact-render-to-string";

/** A complete HTML document from a page tree. */
export function renderDocument(page: VNode): string {
  return `<!doctype html>${renderToString(page)}`;
}
