export { type AnnounceReport, announce, createRegenerate } from "./announce.js";
export { DescriptionAnnotation, descriptionFields, readmeSummary, readmeTitle } from "./description.js";
export type {
  AnnounceDestination,
  IndexChange,
  IndexFileReader,
  PublishResult,
  Regenerate,
} from "./destination.js";
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
