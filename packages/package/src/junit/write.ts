import { countCases, type JUnitCase, type JUnitOutcome, type JUnitReport, type JUnitSuite } from "./model.js";
import { escapeAttribute, escapeText } from "./xml-text.js";

/**
 * The document for `report`: a `<testsuites>` root with one `<testsuite>` per suite. Each suite's
 * `tests`, `failures`, `errors`, `skipped` and `time` are derived from its cases (never taken from
 * `counts`), so what is written always agrees with itself. Valid against the Jenkins/Surefire
 * JUnit schema.
 */
export function renderJUnit(report: JUnitReport): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<testsuites>"];
  for (const suite of report.suites) lines.push(...renderSuite(suite));
  lines.push("</testsuites>", "");
  return lines.join("\n");
}

function renderSuite(suite: JUnitSuite): string[] {
  const counts = countCases(suite.cases);
  const time = suite.cases.reduce((sum, testCase) => sum + testCase.time, 0);
  const open = element("testsuite", {
    name: suite.name,
    tests: String(counts.tests),
    failures: String(counts.failures),
    errors: String(counts.errors),
    skipped: String(counts.skipped),
    time: seconds(time),
  });
  const lines = [`  ${open}>`];
  if (suite.properties.length > 0) {
    lines.push("    <properties>");
    for (const { name, value } of suite.properties)
      lines.push(`      ${element("property", { name, value })}/>`);
    lines.push("    </properties>");
  }
  for (const testCase of suite.cases) lines.push(...renderCase(testCase));
  lines.push("  </testsuite>");
  return lines;
}

function renderCase(testCase: JUnitCase): string[] {
  const open = element("testcase", {
    name: testCase.name,
    classname: testCase.classname,
    time: seconds(testCase.time),
  });
  const body: string[] = [];
  for (const [tag, outcome] of [
    ["failure", testCase.failure],
    ["error", testCase.error],
    ["skipped", testCase.skipped],
  ] as const) {
    if (outcome !== undefined) body.push(renderOutcome(tag, outcome));
  }
  if (testCase.systemOut !== undefined)
    body.push(`<system-out>${escapeText(testCase.systemOut)}</system-out>`);
  if (testCase.systemErr !== undefined)
    body.push(`<system-err>${escapeText(testCase.systemErr)}</system-err>`);
  if (body.length === 0) return [`    ${open}/>`];
  return [`    ${open}>`, ...body.map((line) => `      ${line}`), "    </testcase>"];
}

function renderOutcome(tag: string, outcome: JUnitOutcome): string {
  const open = element(tag, { type: outcome.type, message: outcome.message });
  return outcome.text === undefined ? `${open}/>` : `${open}>${escapeText(outcome.text)}</${tag}>`;
}

/** `<tag a="..." ...` without its closing `>` or `/>`; absent attributes are left out. */
function element(tag: string, attributes: Record<string, string | undefined>): string {
  const parts = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`);
  return `<${tag}${parts.join("")}`;
}

/** Seconds with millisecond precision and no thousands separator: `0.250`, `12.000`. */
function seconds(value: number): string {
  return (Number.isFinite(value) && value > 0 ? value : 0).toFixed(3);
}
