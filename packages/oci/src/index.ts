export { abortError, type OperationOptions } from "./abort.js";
export { memoryBlob } from "./blob-source.js";
export { type Challenge, parseChallenges } from "./challenge.js";
export { isDigest, parseDigest, sha256Digest, VerifyingStream } from "./digest.js";
export { withFileLock } from "./file-lock.js";
export { type ManifestDocument, parseImageIndex, parseManifestDocument } from "./image-index.js";
export { LayoutTarget, openLayout } from "./layout.js";
export { MAX_CHUNK_SIZE, MAX_MANIFEST_SIZE } from "./limits.js";
export { MemoryStore, MemoryTarget, openMemory } from "./memory.js";
export {
  formatReference,
  isValidRegistryHost,
  isValidRepository,
  isValidTag,
  parseReference,
  parseRepositoryReference,
  type Reference,
  type RepositoryReference,
} from "./reference.js";
export { referrersTag } from "./referrers.js";
export {
  openRegistry,
  type RegistryLocation,
  RegistryTarget,
  type RegistryTargetOptions,
} from "./registry.js";
export { type ListTagsOptions, readOnly, type Target, type TargetReader } from "./target.js";
export { isLoopbackHost, REGISTRY_RETRY, RegistryClient, type RegistryClientOptions } from "./transport.js";
export * from "./types.js";
export type { UploadMode } from "./upload-mode.js";
