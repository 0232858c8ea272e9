import { isMap, isScalar } from "yaml";
import { type Field, MapField } from "./field.js";
import type { MirrorSpec, TopFields } from "./mirror-spec.js";
import { SOURCE_TYPES, type SourceType } from "./source.js";

/** A value as a mapping without reporting anything (its reader already did), or undefined. */
export function openMap(field: Field | undefined): MapField | undefined {
  if (!field || !isMap(field.value)) return undefined;
  return new MapField(field.source, field.diagnostics, field.node, field.path, field.anchor);
}

/** The source type from the model, or from the raw value when the rest of `source` was refused. */
export function sourceTypeOf(spec: MirrorSpec, top: TopFields): SourceType | undefined {
  if (spec.source) return spec.source.type;
  const type = openMap(top.get("source"))?.get("type").value;
  const text = isScalar(type) ? type.value : undefined;
  return SOURCE_TYPES.find((t) => t === text);
}
