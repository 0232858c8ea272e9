/** Small builders for the JSON Schema documents written in TypeScript. */

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/$defs/${name}` });

/** A mapping whose keys are exactly `properties` (the loader refuses any other key). */
export function closed(properties: Record<string, Schema>, extra: Schema = {}): Schema {
  return { type: "object", properties, additionalProperties: false, ...extra };
}

export function text(description: string, extra: Schema = {}): Schema {
  return { type: "string", description, ...extra };
}

/** A string that is not empty or whitespace only. */
export function filled(description: string, extra: Schema = {}): Schema {
  return text(description, { pattern: "\\S", ...extra });
}

/** JSON Schema's `if`/`then`/`else`, spelled in one place (lint reads a `then:` key as a thenable). */
export function when(condition: Schema, then: Schema, otherwise?: Schema): Schema {
  return { if: condition, then, ...(otherwise ? { else: otherwise } : {}) };
}
