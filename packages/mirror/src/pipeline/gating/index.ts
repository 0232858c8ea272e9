// Push gating: which test legs decide a (version, platform) entry, and their JUnit verdict.
export { type GatingSelection, gatingContainers } from "./gating-containers.js";
export { judgePair, type PairToJudge } from "./judge-pair.js";
export {
  type ContainerJUnit,
  JOB_URL_PROPERTY,
  JUNIT_TEST,
  judgeJUnit,
  type PairVerdict,
  PLATFORM_PROPERTY,
  SUITE_TEST,
} from "./junit-verdict.js";
