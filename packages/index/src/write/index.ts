export { encodeIndexConfig, newIndexConfig, updateCatalogIndex } from "./catalog-writer.js";
export { writeIndexFiles, writeOrder } from "./fs-writer.js";
export { encodeIndexJson, type JsonInput } from "./index-json.js";
export { type OrderedJson, objectKeysAt, parseOrderedJson } from "./ordered-json.js";
export {
  CATALOG_INDEX_PATH,
  CONFIG_PATH,
  type IndexState,
  type ObservedDescription,
  type ObservedImageIndex,
  type PackageWrite,
  type PackageWriteInput,
  planPackageWrite,
  type ReadIndexFile,
  readIndexState,
} from "./package-write.js";
export { isListableTag, isReservedTag } from "./reserved-tags.js";
export {
  buildPackageRoot,
  type CommittedRoot,
  type NewRootFields,
  type ObservedTag,
  type RootResult,
  type RootUpdate,
  readCommittedRoot,
} from "./root-writer.js";
export { createdDate, observedTimestamp } from "./timestamps.js";
