export { abortError, type OperationOptions } from "./abort.js";
export { memoryBlob } from "./blob-source.js";
export { type Challenge, parseChallenges } from "./challenge.js";
export { sha256Digest, VerifyingStream } from "./digest.js";
// the parsing that needs no registry client, also importable alone as `@pkg/oci/documents`
export * from "./documents.js";
export { withFileLock } from "./file-lock.js";
export { LayoutTarget, openLayout } from "./layout.js";
export { MAX_CHUNK_SIZE, MAX_MANIFEST_SIZE } from "./limits.js";
export { MemoryStore, MemoryTarget, openMemory } from "./memory.js";
export { referrersTag } from "./referrers.js";
export {
  openRegistry,
  type RegistryLocation,
  RegistryTarget,
  type RegistryTargetOptions,
} from "./registry.js";
export { type ListTagsOptions, readOnly, type Target, type TargetReader } from "./target.js";
export { isLoopbackHost, REGISTRY_RETRY, RegistryClient, type RegistryClientOptions } from "./transport.js";
export type { UploadMode } from "./upload-mode.js";
