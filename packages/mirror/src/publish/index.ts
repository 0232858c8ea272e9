export {
  annotationsFor,
  CI_ANNOTATION_VARIABLES,
  ciAnnotations,
  REVISION_ANNOTATION,
  SOURCE_ANNOTATION,
} from "./annotations.js";
export {
  type Deadline,
  PUSH_ATTEMPT_TIMEOUT_MS,
  realDeadline,
  withAttemptDeadline,
} from "./attempt-deadline.js";
export {
  type PlatformPublishResult,
  type PublishVersionOptions,
  publishVersion,
  type VersionPublishResult,
} from "./publish-version.js";
export type { PlatformBundle, PlatformFailedEarlier, VersionPlatform } from "./ready-platform.js";
export { type PushRetryOptions, type RetryOutcome, withPushRetries } from "./retry.js";
// types only: the signing modules load the signing libraries, which a run without `sign` never needs
// (cli/run-signer.ts imports them when the spec signs)
export type { RunSigner } from "./sign-published.js";
export type { ResolvedSigning } from "./sign-resolve.js";
