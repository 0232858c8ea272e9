export { binaryFileName } from "./binary-name.js";
export type { AssetFormat, Compression } from "./formats.js";
export { DEFAULT_UNPACK_LIMITS, type UnpackLimits } from "./limits.js";
export { type UnpackAssetType, type UnpackOptions, type UnpackResult, unpackAsset } from "./unpack.js";
export { createUnpackPool, type UnpackPool } from "./unpack-pool.js";
export { readZipEntry } from "./unpack-zip.js";
