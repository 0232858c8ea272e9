export { IndexFileError } from "./errors.js";
export {
  extensionOf,
  type FoundFile,
  type IndexFileReader,
  type ReadRequest,
  readFirstInOrder,
  verifyDigest,
} from "./file-reader.js";
export { createFsReader } from "./fs-reader.js";
export { createLimiter, type Limiter } from "./limiter.js";
export {
  CATALOG_INDEX_MAX_BYTES,
  CONFIG_MAX_BYTES,
  DEFAULT_FILE_CONCURRENCY,
  IMAGE_INDEX_MAX_BYTES,
  LOGO_MAX_BYTES,
  README_MAX_BYTES,
  ROOT_MAX_BYTES,
} from "./limits.js";
export { type PackageContext, type PackageOutcome, readPackage } from "./read-package.js";
export type { LoadedPackage } from "./types.js";
export { type WalkedIndex, type WalkOptions, walkIndex } from "./walk-index.js";
