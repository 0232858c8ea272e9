import { oneLine } from "@pkg/common";
import { casePassed, type JUnitCase, type JUnitReport, type JUnitSuite } from "@pkg/package/junit";
import type { PlanContainer, PlanLeg } from "../documents/plan-document.js";
import type { PlatformFailure, TestFailure } from "../documents/run-summary.js";

/** The suite property naming the CI job that ran the leg: the failure's `job_url`. */
export const JOB_URL_PROPERTY = "ci.job.url";

/**
 * The suite property naming the full platform key a suite's cases tested. A container gating two
 * entries of one version (`linux/amd64` and `linux/amd64+libc.musl` on an alpine leg) writes a
 * suite for each into one JUnit file; each entry is judged by its own suite only. A suite without
 * it (another renderer's) counts for every entry the file gates.
 */
export const PLATFORM_PROPERTY = "pkg.platform";

/** The test name of a failure about the JUnit file itself, and of suite counts no case carries. */
export const JUNIT_TEST = "<junit>";
export const SUITE_TEST = "<suite>";

/** Whether a (version, platform) may be pushed, and if not, why. */
export interface PairVerdict {
  green: boolean;
  /** Present exactly when not green. */
  failure?: PlatformFailure;
  testFailures: TestFailure[];
}

/** One gating container's JUnit file as read: its report, or why there is none. */
export interface ContainerJUnit {
  container: PlanContainer;
  /** The file's name (for messages). */
  file: string;
  read: { report: JUnitReport } | { unreadable: string };
}

/**
 * The verdict on one entry from its gating containers' JUnit files (an AND over them): red when a
 * file is missing or unreadable (`missing_junit`), a declared test of the leg is absent, any case
 * has a failure or an error (skipped passes), or a suite counts failures or errors no case
 * carries (`test_failed`). A missing file outranks test failures (the artefact never arrived);
 * the message lists every finding. The first non-empty `ci.job.url` becomes the `job_url`.
 */
export function judgeJUnit(platform: string, leg: PlanLeg, files: readonly ContainerJUnit[]): PairVerdict {
  const testFailures: TestFailure[] = [];
  let missing = false;
  let jobUrl: string | undefined;
  const fail = (container: string, test: string, message: string) =>
    testFailures.push({ platform, container, test, message: oneLine(message) });
  for (const { container, file, read } of files) {
    if ("unreadable" in read) {
      missing = true;
      fail(container.id, JUNIT_TEST, read.unreadable);
      continue;
    }
    const suites = read.report.suites.filter((suite) => {
      const tested = property(suite, PLATFORM_PROPERTY);
      return tested === undefined || tested === platform;
    });
    jobUrl ??= suites.map((suite) => property(suite, JOB_URL_PROPERTY)).find((url) => url !== undefined);
    const cases = suites.flatMap((suite) => suite.cases);
    for (const test of leg.tests) {
      if (!cases.some((c) => c.name === test.name))
        fail(container.id, test.name, `test '${test.name}' not found in ${file}`);
    }
    for (const testCase of cases) {
      if (!casePassed(testCase)) fail(container.id, testCase.name, caseMessage(testCase));
    }
    for (const suite of suites) {
      const { failures, errors } = suite.counts;
      if (failures + errors > 0 && suite.cases.every(casePassed)) {
        fail(
          container.id,
          SUITE_TEST,
          `suite ${suite.name} counts ${failures} failure(s) and ${errors} error(s) that no test case carries`,
        );
      }
    }
  }
  if (testFailures.length === 0) return { green: true, testFailures };
  const failure: PlatformFailure = {
    platform,
    reason: missing ? "missing_junit" : "test_failed",
    message: oneLine(testFailures.map((f) => `${f.container}/${f.test}: ${f.message}`).join("; ")),
    ...(jobUrl === undefined ? {} : { job_url: jobUrl }),
  };
  return { green: false, failure, testFailures };
}

function property(suite: JUnitSuite, name: string): string | undefined {
  const found = suite.properties.find((p) => p.name === name && p.value.trim() !== "");
  return found?.value.trim();
}

function caseMessage(testCase: JUnitCase): string {
  if (testCase.failure !== undefined) {
    return `failed: ${testCase.failure.message ?? testCase.failure.type ?? "failure"}`;
  }
  const error = testCase.error;
  return `error: ${error?.message ?? error?.type ?? "error"}`;
}
