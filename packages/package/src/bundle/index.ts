export { type ArchiveKind, DETECT_BYTES, detectArchive, detectArchiveFile } from "./archive-kind.js";
export { type BundleResult, createBundle } from "./create.js";
export { type ExtractBundleOptions, type ExtractResult, extractBundle } from "./extract.js";
export {
  type BundleFormat,
  type BundlePlan,
  type CreateBundleOptions,
  formatFromPath,
  mediaTypeOf,
  planBundle,
  sourceDateEpoch,
} from "./options.js";
