/** Size caps per kind of index file: a file above its cap is refused before it is read in full. */
const MiB = 1024 * 1024;

export const CONFIG_MAX_BYTES = 64 * 1024;
/** c/index.json lists every package (about 100 bytes each). */
export const CATALOG_INDEX_MAX_BYTES = 64 * MiB;
export const ROOT_MAX_BYTES = 4 * MiB;
export const IMAGE_INDEX_MAX_BYTES = 1 * MiB;
export const README_MAX_BYTES = 1 * MiB;
export const LOGO_MAX_BYTES = 1 * MiB;

/** Files read at once from a local tree. */
export const DEFAULT_FILE_CONCURRENCY = 32;
