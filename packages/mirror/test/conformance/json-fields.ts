import type { SpecObject } from "./case.js";

/** A YAML value of a spec (case.ts keeps its `Json` type private). */
export type Json = Exclude<SpecObject[string], undefined>;
/** A mapping nested inside a spec: unlike a top-level `SpecObject`, no key is `undefined`. */
export type Fields = { [key: string]: Json };
