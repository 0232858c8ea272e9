import { describe, expect, it } from "vitest";
import { addTestCase } from "./merge.js";
import type { JUnitCase, JUnitReport } from "./model.js";
import { parseJUnit } from "./read.js";
import { renderJUnit } from "./write.js";
import { decodeAttribute, decodeText, escapeAttribute, escapeText } from "./xml-text.js";

const nasty = `a<b & c>"d" 'e'\ttab\nline\r\nend \u001b[31mred\u001b[0m`;

const passed = (name: string, classname = "1.0.linux-amd64"): JUnitCase => ({ name, classname, time: 0.25 });

describe("escaping", () => {
  it("round-trips text and attributes through the decoder, characters XML cannot carry written as \\xNN", () => {
    const expected = nasty.replaceAll("\u001b", "\\x1b");
    expect(decodeText(escapeText(nasty))).toBe(expected);
    expect(decodeAttribute(escapeAttribute(nasty))).toBe(expected);
    expect(escapeAttribute('<&">')).toBe("&lt;&amp;&quot;&gt;");
    expect(escapeText("\uD800 lone")).toBe("\\xd800 lone");
  });

  it("decodes what other writers use: numeric references, apos, literal breaks in attributes as spaces", () => {
    expect(decodeText("&#65;&#x42;&apos;&unknown;\r\nx")).toBe("AB'&unknown;\nx");
    expect(decodeAttribute("a\nb\tc&#10;d")).toBe("a b c\nd");
  });
});

describe("renderJUnit and parseJUnit", () => {
  const report: JUnitReport = {
    suites: [
      {
        name: `1.0.linux-amd64 ${nasty}`,
        properties: [{ name: "ci.job.url", value: "https://ci.example/run?a=1&b=2" }],
        cases: [
          passed("version"),
          {
            name: `smoke ${nasty}`,
            classname: "1.0.linux-amd64",
            time: 1.5,
            failure: { type: "NonZeroExit", message: `exit 3 ${nasty}`, text: `stderr tail ${nasty}` },
            systemOut: "out <x>",
            systemErr: "err & more",
          },
          { name: "broken", classname: "c", time: 0, error: { type: "script_error", message: "bad" } },
          { name: "later", classname: "c", time: 0, skipped: { message: "not now" } },
        ],
        counts: { tests: 0, failures: 0, errors: 0, skipped: 0 },
      },
    ],
  };

  it("writes counts derived from the cases and reads back every field", () => {
    const xml = renderJUnit(report);
    expect(xml).toContain('tests="4" failures="1" errors="1" skipped="1" time="1.750"');
    const read = parseJUnit(xml, "x.xml");
    const [suite] = read.suites;
    const fixed = (s: string) => s.replaceAll("\u001b", "\\x1b");
    expect(suite?.name).toBe(fixed(`1.0.linux-amd64 ${nasty}`));
    expect(suite?.properties).toEqual(report.suites[0]?.properties);
    expect(suite?.counts).toEqual({ tests: 4, failures: 1, errors: 1, skipped: 1 });
    expect(suite?.time).toBe(1.75);
    expect(suite?.cases[1]).toEqual({
      name: fixed(`smoke ${nasty}`),
      classname: "1.0.linux-amd64",
      time: 1.5,
      failure: {
        type: "NonZeroExit",
        message: fixed(`exit 3 ${nasty}`),
        text: fixed(`stderr tail ${nasty}`),
      },
      systemOut: "out <x>",
      systemErr: "err & more",
    });
    expect(suite?.cases[0]).toEqual(passed("version"));
    expect(suite?.cases[2]?.error).toEqual({ type: "script_error", message: "bad" });
    expect(suite?.cases[3]?.skipped).toEqual({ message: "not now" });
  });

  it("reads a bare <testsuite> root, nested suites, Surefire timeouts, CDATA and thousands separators", () => {
    const xml = `<?xml version="1.0"?>
<!-- written by another tool -->
<testsuite name="outer" tests="3" failures="1" errors="0" time="1,234.5">
  <testcase name="slow" classname="a.B" time="1,200.25"><failure type="timeout"><![CDATA[timed out & <stuck>]]></failure></testcase>
  <testcase name="flaky" classname="a.B"><flakyFailure type="x"/></testcase>
  <testsuite name="inner" tests="1" failures="0" errors="0">
    <testcase name="deep"/>
  </testsuite>
</testsuite>`;
    const read = parseJUnit(xml, "s.xml");
    expect(read.suites.map((s) => s.name)).toEqual(["outer", "inner"]);
    const [outer, inner] = read.suites;
    expect(outer?.time).toBe(1234.5);
    expect(outer?.counts.tests).toBe(3);
    expect(outer?.cases[0]).toEqual({
      name: "slow",
      classname: "a.B",
      time: 1200.25,
      failure: { type: "timeout", text: "timed out & <stuck>" },
    });
    expect(outer?.cases[1]).toEqual({ name: "flaky", classname: "a.B", time: 0 });
    expect(inner?.cases).toEqual([{ name: "deep", classname: "inner", time: 0 }]);
  });

  it("refuses what is not JUnit with 65, naming the file, line and column", () => {
    expect(() => parseJUnit("<testsuites><testsuite name='a'>", "j.xml")).toThrow(
      expect.objectContaining({
        exitCode: 65,
        message: expect.stringMatching(/^j\.xml:1(:\d+)?: not well-formed XML/),
      }),
    );
    expect(() => parseJUnit("<results/>", "j.xml")).toThrow(
      expect.objectContaining({
        exitCode: 65,
        message: "j.xml: the root element is <results>, not <testsuites> or <testsuite>",
      }),
    );
    expect(() => parseJUnit("", "j.xml")).toThrow(expect.objectContaining({ exitCode: 65 }));
    expect(() => parseJUnit('<testsuite name="a" tests="many"/>', "j.xml")).toThrow(
      expect.objectContaining({ exitCode: 65, message: 'j.xml: testsuite "a": tests="many" is not a count' }),
    );
  });
});

describe("addTestCase", () => {
  it("adds to the named suite, makes one when missing, replaces a case run again, and sets properties", () => {
    let report: JUnitReport = { suites: [] };
    report = addTestCase(report, { name: "s1" }, passed("a", "s1"));
    report = addTestCase(
      report,
      { name: "s1", properties: [{ name: "ci.job.url", value: "u1" }] },
      passed("b", "s1"),
    );
    report = addTestCase(report, { name: "s2" }, passed("a", "s2"));
    const failedA: JUnitCase = { ...passed("a", "s1"), failure: { type: "NonZeroExit", message: "exit 1" } };
    report = addTestCase(report, { name: "s1", properties: [{ name: "ci.job.url", value: "u2" }] }, failedA);
    expect(report.suites.map((s) => [s.name, s.cases.map((c) => c.name)])).toEqual([
      ["s1", ["a", "b"]],
      ["s2", ["a"]],
    ]);
    expect(report.suites[0]?.cases[0]).toEqual(failedA);
    expect(report.suites[0]?.counts).toEqual({ tests: 2, failures: 1, errors: 0, skipped: 0 });
    expect(report.suites[0]?.properties).toEqual([{ name: "ci.job.url", value: "u2" }]);
  });
});
