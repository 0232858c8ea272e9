import { Document, Scalar } from "yaml";
import { ACTION_PINS, type PinnedAction } from "./pins.js";

/**
 * YAML text of a generated file: deterministic (keys in the order the objects give them, no line
 * folding), the header as the leading comment. Pinned `uses:` values are scalars carrying their
 * release as a trailing comment.
 */
export function yamlText(header: readonly string[], body: unknown): string {
  // no anchors: a list used twice is written twice
  const doc = new Document(body, { aliasDuplicateObjects: false });
  doc.commentBefore = header.join("\n");
  return doc.toString({ lineWidth: 0, indent: 2, indentSeq: true });
}

/** `<action>@<sha> # <release>` from the one pin table. */
export function pinned(name: PinnedAction): Scalar<string> {
  const pin = ACTION_PINS[name];
  const node = new Scalar(`${pin.action}@${pin.sha}`);
  node.comment = ` ${pin.release}`;
  return node;
}
