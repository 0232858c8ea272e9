export { digestHex, isSha256Digest, sha256Of } from "./digest.js";
export { IndexFormatError } from "./errors.js";
export { SUPPORTED_FORMAT_VERSION } from "./format-version.js";
export {
  DEFAULT_NAME_SEGMENTS,
  isSafePackagePath,
  isValidLabel,
  isValidTagName,
  PACKAGE_PATH_MAX,
  splitPackageName,
} from "./grammar.js";
export { type CatalogIndexOptions, parseCatalogIndex } from "./parse-catalog-index.js";
export { parseIndexConfig } from "./parse-config.js";
export { parseImageIndex } from "./parse-image-index.js";
export { type PackageRootOptions, parsePackageRoot } from "./parse-root.js";
export { type ObjectExtension, objectFilePath, rootFilePath } from "./paths.js";
export type * from "./types.js";
