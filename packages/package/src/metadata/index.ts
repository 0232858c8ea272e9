export { dependencyName } from "./dependencies.js";
export { readMetadataFile, writeMetadataFile } from "./files.js";
export {
  DEPENDENCY_VISIBILITIES,
  type Dependency,
  type DependencyVisibility,
  defaultMetadata,
  ENV_VISIBILITIES,
  type Entrypoint,
  type EnvEntry,
  type EnvVisibility,
  type Metadata,
} from "./model.js";
export { parseMetadata } from "./parse.js";
export { serializeMetadata } from "./serialize.js";
export { validateMetadata } from "./validate.js";
