import { ExitCode } from "@pkg/common";
import type { JUnitCase } from "../junit/model.js";
import type { CapturedRun } from "./capture.js";

/** How the test was given: a command after `--`, a script file, or a script on stdin (`--script -`). */
export type TestKind = "command" | "script" | "script_inline";

/**
 * `passed`; `failed` (non-zero exit, failed expectation, `fail()`); `timeout` (a run killed at
 * its deadline); `usage` (64); `script_error` (65: the script does not parse or run, a command
 * the package ships cannot run); `io` (74).
 */
export type TestStatus = "passed" | "failed" | "usage" | "script_error" | "io" | "timeout";

/** Stable tokens of what failed: the `expect.*` function, `fail` for `fail()`, `other` for a host API failure. */
export type AssertionKind =
  | "ok"
  | "eq"
  | "ne"
  | "true"
  | "false"
  | "contains"
  | "matches"
  | "fail"
  | "other"
  | "unknown";

export interface Assertion {
  kind: AssertionKind;
  message: string;
}

/** What `pkg package test --format json` prints. */
export interface TestReport {
  name: string;
  kind: TestKind;
  /** The platform key, as given. */
  platform: string;
  version: string;
  status: TestStatus;
  /** One line: why it did not pass; null when it passed. */
  message: string | null;
  assertion: Assertion | null;
  /** The command's run, or the script's last `pkg.run`; null when nothing ran. */
  run: CapturedRun | null;
  duration_ms: number;
}

const exitCodes: Record<TestStatus, ExitCode> = {
  passed: ExitCode.Ok,
  failed: ExitCode.Failed,
  timeout: ExitCode.Failed,
  usage: ExitCode.Usage,
  script_error: ExitCode.Data,
  io: ExitCode.IoError,
};

/** The exit status of `pkg package test` for a status. */
export function exitCodeOf(status: TestStatus): ExitCode {
  return exitCodes[status];
}

/** The status an error's exit code stands for, when the test could not run as given. */
export function statusOfExitCode(code: number): TestStatus {
  if (code === ExitCode.Usage) return "usage";
  if (code === ExitCode.Data) return "script_error";
  if (code === ExitCode.IoError) return "io";
  return "failed";
}

/** How much of each output stream a failing JUnit case carries: the end, where the error usually is. */
const JUNIT_OUTPUT_TAIL = 64 * 1024;

function tail(text: string): string {
  return text.length <= JUNIT_OUTPUT_TAIL
    ? text
    : `[... ${text.length - JUNIT_OUTPUT_TAIL} characters before]\n${text.slice(-JUNIT_OUTPUT_TAIL)}`;
}

/**
 * The JUnit test case of a report: `<failure>` for a test that ran and did not pass (type
 * `NonZeroExit` with message `exit N`, `timeout`, or the assertion's `expect.<kind>`), `<error>`
 * for one that could not run as given; a case that did not pass carries its output's tail.
 */
export function junitCaseOf(report: TestReport, classname: string): JUnitCase {
  const base: JUnitCase = { name: report.name, classname, time: report.duration_ms / 1000 };
  if (report.status === "passed") return base;
  const message = report.message ?? report.status;
  const output = {
    ...(report.run?.stdout ? { systemOut: tail(report.run.stdout) } : {}),
    ...(report.run?.stderr ? { systemErr: tail(report.run.stderr) } : {}),
  };
  if (report.status === "failed" || report.status === "timeout") {
    const type =
      report.status === "timeout"
        ? "timeout"
        : report.assertion !== null
          ? `expect.${report.assertion.kind}`
          : "NonZeroExit";
    return { ...base, failure: { type, message }, ...output };
  }
  return { ...base, error: { type: report.status, message }, ...output };
}

/** The line `pkg package test` ends with on stderr. */
export function summaryLine(report: TestReport): string {
  const seconds = (report.duration_ms / 1000).toFixed(2);
  const what = report.name === "" ? report.kind : report.name;
  if (report.status === "passed") return `PASS ${what} (${seconds} s)`;
  return `${report.status === "failed" ? "FAIL" : report.status.toUpperCase()} ${what}: ${report.message ?? report.status}`;
}
