export { type ArchiveKind, DETECT_BYTES, detectArchive, detectArchiveFile } from "./archive-kind.js";
export { decompressor } from "./codecs.js";
export { type BundleResult, createBundle } from "./create.js";
export { checkEmptyDestination } from "./empty-destination.js";
export { type ExtractBundleOptions, type ExtractResult, extractBundle } from "./extract.js";
export { type Extraction, extractEntry } from "./extract-entry.js";
export { archivePathSegments, type ExtractedKind, ExtractionRecord } from "./extract-guard.js";
export {
  type BundleFormat,
  type BundlePlan,
  type CreateBundleOptions,
  formatFromPath,
  mediaTypeOf,
  planBundle,
  sourceDateEpoch,
} from "./options.js";
export {
  findEscapingLink,
  judgeSymlink,
  type LinkLookup,
  type LinkVerdict,
  linkLeavesTree,
} from "./symlink-guard.js";
export { type BundlePool, createBundlePool } from "./worker-pool.js";
export { writeAll } from "./write-all.js";
