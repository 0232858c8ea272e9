/**
 * The JUnit XML dialect `pkg package test` writes and the pipeline's push gating reads, as data:
 *
 * ```xml
 * <testsuites>
 *   <testsuite name="1.2.3.linux-amd64.native" tests="2" failures="1" errors="0" skipped="0" time="1.250">
 *     <properties><property name="ci.job.url" value="https://..."/></properties>
 *     <testcase name="version" classname="1.2.3.linux-amd64.native" time="0.250"/>
 *     <testcase name="smoke" classname="1.2.3.linux-amd64.native" time="1.000">
 *       <failure type="NonZeroExit" message="exit 3">...</failure>
 *     </testcase>
 *   </testsuite>
 * </testsuites>
 * ```
 *
 * The reader also takes a bare `<testsuite>` root, nested suites and what Surefire writes
 * (`type="timeout"`, text bodies, `<rerunFailure>`/`<flaky*>` elements, which it ignores).
 */

/** A `<failure>`, `<error>` or `<skipped>` of a test case. */
export interface JUnitOutcome {
  type?: string;
  message?: string;
  /** The element's text: details such as the captured output's tail. */
  text?: string;
}

export interface JUnitCase {
  name: string;
  classname: string;
  /** Seconds. */
  time: number;
  /** The test ran and did not pass (an assertion, a non-zero exit, a timeout). */
  failure?: JUnitOutcome;
  /** The test could not run as written (a script error, a command that cannot run). */
  error?: JUnitOutcome;
  skipped?: JUnitOutcome;
  systemOut?: string;
  systemErr?: string;
}

/** The counts a suite declares in its attributes, as read (they may disagree with its cases). */
export interface JUnitCounts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

export interface JUnitSuite {
  name: string;
  /** `<properties>` in document order; `ci.job.url` names the CI job that ran it. */
  properties: ReadonlyArray<{ name: string; value: string }>;
  cases: JUnitCase[];
  /** What the attributes say; a writer derives them from `cases` (`countCases`). */
  counts: JUnitCounts;
  /** Seconds, as declared; a writer sums the cases'. */
  time?: number;
}

export interface JUnitReport {
  suites: JUnitSuite[];
}

/** The counts `cases` amount to: what a suite must declare. */
export function countCases(cases: readonly JUnitCase[]): JUnitCounts {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure !== undefined).length,
    errors: cases.filter((c) => c.failure === undefined && c.error !== undefined).length,
    skipped: cases.filter((c) => c.failure === undefined && c.error === undefined && c.skipped !== undefined)
      .length,
  };
}

/** Whether a case counts as passed for gating: no failure and no error (skipped passes). */
export function casePassed(testCase: JUnitCase): boolean {
  return testCase.failure === undefined && testCase.error === undefined;
}
