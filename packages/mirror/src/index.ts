export { formatDiagnostic, type SpecDiagnostic, SpecError } from "./spec/diagnostics.js";
export { type LoadedSpec, type LoadOptions, loadMirrorSpec } from "./spec/loader.js";
export type { MirrorSpec } from "./spec/mirror-spec.js";
