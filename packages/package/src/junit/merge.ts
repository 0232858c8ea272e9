import type { JUnitCase, JUnitReport, JUnitSuite } from "./model.js";
import { countCases } from "./model.js";

/** The suite a test case goes into: its name, and properties it should carry. */
export interface SuiteTarget {
  name: string;
  properties?: ReadonlyArray<{ name: string; value: string }>;
}

/**
 * `report` with `testCase` added to the suite `target` names (made when absent, after the
 * others): a case of the same name and classname already there is replaced in its place (a test
 * run again), any other is kept. Properties of `target` are set on the suite, replacing one of the
 * same name. Pure: `report` is not changed.
 */
export function addTestCase(report: JUnitReport, target: SuiteTarget, testCase: JUnitCase): JUnitReport {
  const suites = report.suites.map((suite) => ({ ...suite }));
  let suite = suites.find((s) => s.name === target.name);
  if (suite === undefined) {
    suite = { name: target.name, properties: [], cases: [], counts: countCases([]) };
    suites.push(suite);
  }
  const same = (c: JUnitCase) => c.name === testCase.name && c.classname === testCase.classname;
  const cases = suite.cases.some(same)
    ? suite.cases.map((c) => (same(c) ? testCase : c))
    : [...suite.cases, testCase];
  const setting = target.properties ?? [];
  const properties = [...suite.properties.filter((p) => !setting.some((s) => s.name === p.name)), ...setting];
  // the time is the cases' sum again, derived when written
  const { time: _time, ...kept } = suite;
  const merged: JUnitSuite = { ...kept, properties, cases, counts: countCases(cases) };
  return { suites: suites.map((s) => (s.name === target.name ? merged : s)) };
}
