// The one JUnit module: the dialect `pkg package test --junit` writes and push gating reads.
export { addTestCaseToFile, readJUnitFile } from "./file.js";
export { addTestCase, type SuiteTarget } from "./merge.js";
export {
  casePassed,
  countCases,
  type JUnitCase,
  type JUnitCounts,
  type JUnitOutcome,
  type JUnitReport,
  type JUnitSuite,
} from "./model.js";
export { parseJUnit } from "./read.js";
export { renderJUnit } from "./write.js";
