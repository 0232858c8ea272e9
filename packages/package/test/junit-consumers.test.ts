// What the JUnit module writes, read by independent consumers: xmllint against the Jenkins/Surefire
// JUnit schema, and junitparser.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addTestCaseToFile, type JUnitCase, readJUnitFile } from "../src/junit/index.js";
import { type JUnitConsumers, junitConsumers } from "./support/junit-consumers.js";

let work: TempDir;
let consumers: JUnitConsumers;

beforeAll(async () => {
  work = await tempDir("pkg-junit-");
  consumers = await junitConsumers();
}, 300_000);
afterAll(async () => {
  await work?.remove();
});

const special = `<&"> 'q'`;

describe("JUnit files", () => {
  it("are valid against the JUnit schema and read the same by junitparser, escaping included", async () => {
    const file = join(work.path, "out", "junit-1.0-linux-amd64-native.xml");
    const suite = {
      name: `1.0.linux-amd64.native ${special}`,
      properties: [{ name: "ci.job.url", value: "https://ci/x?a=1&b=2" }],
    };
    const cases: JUnitCase[] = [
      { name: "version", classname: suite.name, time: 0.5 },
      {
        name: `smoke ${special}`,
        classname: suite.name,
        time: 1.25,
        failure: {
          type: "NonZeroExit",
          message: `exit 3: ${special}\nsecond line`,
          text: `stderr ${special}\u001b[0m`,
        },
        systemErr: `err ${special}`,
      },
      {
        name: "script",
        classname: suite.name,
        time: 0,
        error: { type: "script_error", message: "line 2: bad" },
      },
    ];
    for (const testCase of cases) await addTestCaseToFile(file, suite, testCase);

    const validated = await consumers.validate(file);
    expect(validated, validated.output).toMatchObject({ code: 0 });

    const parsed = await consumers.junitparser(file);
    expect(parsed.suites).toHaveLength(1);
    const [read] = parsed.suites;
    expect(read).toMatchObject({ name: suite.name, tests: 3, failures: 1, errors: 1, skipped: 0 });
    expect(read?.properties).toEqual({ "ci.job.url": "https://ci/x?a=1&b=2" });
    expect(read?.cases.map((c) => [c.name, c.classname, c.time])).toEqual([
      ["version", suite.name, 0.5],
      [`smoke ${special}`, suite.name, 1.25],
      ["script", suite.name, 0],
    ]);
    expect(read?.cases[1]?.results).toEqual([
      {
        kind: "Failure",
        type: "NonZeroExit",
        message: `exit 3: ${special}\nsecond line`,
        text: `stderr ${special}\\x1b[0m`,
      },
    ]);
    expect(read?.cases[1]?.system_err).toBe(`err ${special}`);
    expect(read?.cases[2]?.results).toEqual([
      { kind: "Error", type: "script_error", message: "line 2: bad", text: null },
    ]);
    expect(read?.cases[0]?.results).toEqual([]);
  });

  it("a schema violation is caught by the validator (the check can fail)", async () => {
    const file = join(work.path, "bad.xml");
    await writeFile(file, '<testsuites><testsuite name="x"><testcase name="a"/></testsuite></testsuites>');
    const validated = await consumers.validate(file);
    expect(validated.code).not.toBe(0);
    expect(validated.output).toContain("tests");
  });

  it("keeps every case when writers add to one file at once", async () => {
    const file = join(work.path, "concurrent.xml");
    const names = Array.from({ length: 12 }, (_, i) => `t${i}`);
    await Promise.all(
      names.map((name) => addTestCaseToFile(file, { name: "s" }, { name, classname: "s", time: 0 })),
    );
    const read = await readJUnitFile(file);
    expect(read.suites[0]?.cases.map((c) => c.name).sort()).toEqual([...names].sort());
    expect((await consumers.validate(file)).code).toBe(0);
  });

  it("leaves a file that is not JUnit as it is (65)", async () => {
    const file = join(work.path, "notes.xml");
    await writeFile(file, "<notes>keep me</notes>");
    await expect(
      addTestCaseToFile(file, { name: "s" }, { name: "a", classname: "s", time: 0 }),
    ).rejects.toMatchObject({
      exitCode: 65,
    });
    expect(await readFile(file, "utf8")).toBe("<notes>keep me</notes>");
  });
});
