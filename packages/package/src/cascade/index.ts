export {
  type AliasRow,
  type AuditedAlias,
  auditCascade,
  type CascadeAudit,
  type CascadeStatus,
  type FoldOptions,
  type PlatformFinding,
  type PlatformState,
  rebuiltIndex,
  type TagContent,
  type UnrepairableReason,
} from "./audit.js";
export { type CascadeCheck, type CascadeCheckReport, checkCascade, readVersionTags } from "./check.js";
export { checkSummary, repairLines, rowLines } from "./format.js";
export { type CheckedWrite, repointIndexEntry, writeIndexChecked } from "./index-write.js";
export { extendsRelease, type LeafVersion, leafVersions, leafVersionTag, tagVariants } from "./leaves.js";
export {
  type PlannedRepair,
  type RepairOptions,
  type RepairOutcome,
  type RepairReport,
  repairCascade,
} from "./repair.js";
