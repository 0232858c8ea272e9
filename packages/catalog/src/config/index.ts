export { ciPackageManager } from "./ci.js";
export { CONFIG_ERROR_CODES, ConfigError, type ConfigErrorCode } from "./errors.js";
export { DEFAULT_CONFIG_FILE, loadCatalogConfig } from "./load.js";
export { CONFIG_VERSION, parseCatalogConfig } from "./parse.js";
export { isInside } from "./paths.js";
export type * from "./types.js";
