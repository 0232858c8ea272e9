export { inWindow, isApplicable, type VersionExclusion, type VersionWindow } from "./bounds.js";
export {
  type CascadeRequest,
  foldCascade,
  planCascade,
  publicationOfTag,
  type TagRole,
  type TagWrite,
} from "./cascade.js";
export { compareVersions } from "./compare.js";
export { existingVersions, versionRecordTags } from "./existing.js";
export {
  formatVersion,
  isPrerelease,
  isValidBuildStamp,
  MAX_RELEASE_COMPONENTS,
  MAX_TAG_LENGTH,
  matchVersion,
  parseVersion,
  type Version,
  withoutBuild,
} from "./grammar.js";
export {
  type BuildTimestamp,
  buildStamp,
  checkPackageTag,
  checkVariantName,
  exactTag,
  LATEST_TAG,
  parseTag,
  primaryTag,
  rollingTags,
  seriesTag,
  type TagInfo,
  versionTag,
} from "./tags.js";
