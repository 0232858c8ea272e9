import type { SectionContext } from "./context.js";
import type { Field } from "./field.js";

/** Extra OCI annotations on every index a push writes; each replaces the auto-detected value of its key. */
export type AnnotationsSpec = Record<string, string>;

/** Keys travel as `--annotation KEY=VALUE`: a key must be non-empty and free of `=`. Values are verbatim. */
export function readAnnotations(field: Field, _ctx: SectionContext): AnnotationsSpec | undefined {
  const map = field.map();
  if (!map) return undefined;
  const before = map.diagnostics.list.length;
  const out: AnnotationsSpec = {};
  for (const { key, field: value, keyField } of map.fields()) {
    if (key.trim() === "") keyField.fail("an annotation key must not be empty");
    else if (key.includes("="))
      keyField.fail(`annotation key ${JSON.stringify(key)} contains "="; it is passed as KEY=VALUE`);
    else {
      const text = value.string();
      if (text !== undefined) out[key] = text;
    }
  }
  return map.diagnostics.list.length > before ? undefined : out;
}
