// `@pkg/oci/documents`: references, digests and manifest documents — the parsing that needs no
// registry client. What imports only this never loads the HTTP stack (undici, TLS) at start-up;
// `@pkg/oci` re-exports all of it.
export { isDigest, parseDigest } from "./digest.js";
export { type ManifestDocument, parseImageIndex, parseManifestDocument } from "./image-index.js";
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
export * from "./types.js";
