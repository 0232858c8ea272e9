/** Registries refuse larger manifests; so does this client, on read and write. */
export const MAX_MANIFEST_SIZE = 4 * 1024 * 1024;

/** Some registries refuse larger PATCH bodies; it is also the largest monolithic upload. */
export const MAX_CHUNK_SIZE = 3 * 1024 * 1024;
