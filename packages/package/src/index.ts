// The package format as a library: the pure parts load without the native compressors; bundle
// creation and extraction live behind `@pkg/package/bundle` (they load native modules).
export * from "./media-types.js";
export * from "./metadata/index.js";
export * from "./platform/index.js";
export * from "./version/index.js";
