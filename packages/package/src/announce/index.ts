export { type AnnounceReport, announce, createRegenerate } from "./announce.js";
export { DescriptionAnnotation, descriptionFields, readmeSummary, readmeTitle } from "./description.js";
export type {
  AnnounceDestination,
  IndexChange,
  IndexFileReader,
  PublishResult,
  Regenerate,
} from "./destination.js";
export {
  announceCredentialFound,
  apiBaseUrl,
  createForgeDestination,
  DEFAULT_FORGE_HOST,
  DETAIL_CAPABILITY,
  DETAIL_NOT_ALLOWLISTED,
  type Forge,
  type ForgeCoordinate,
  type ForgeDestinationOptions,
  type ForgeTarget,
  matchForgeCoordinate,
  PUBLIC_FORGE_HOSTS,
  type Transport,
} from "./forge/index.js";
export { LocalDirectoryDestination } from "./local-destination.js";
export { observeSource, type SourceObservations } from "./observe.js";
export {
  type AnnounceRequest,
  checkLabel,
  checkPackagePath,
  parseOwner,
  parseTagList,
  readTagsFile,
  repositoryUri,
  type TagMode,
} from "./request.js";
