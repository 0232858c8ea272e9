// The three test kinds of a leg (command, script, script_inline through --script -) writing one
// JUnit file, read back by our reader and by independent consumers (xmllint with the JUnit schema,
// junitparser).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJUnitFile } from "../src/junit/index.js";
import { type JUnitConsumers, junitConsumers } from "./support/junit-consumers.js";
import { runPkgWithInput, toolPackage } from "./support/package-test.js";

let work: TempDir;
let tool: string;
let env: Record<string, string>;
let consumers: JUnitConsumers;

beforeAll(async () => {
  work = await tempDir("pkg-package-test-junit-");
  tool = await toolPackage(work.path);
  env = { PKG_HOME: join(work.path, "home"), PATH: "/usr/bin:/bin", TMPDIR: work.path };
  consumers = await junitConsumers();
}, 300_000);
afterAll(async () => {
  await work?.remove();
});

const special = `<&"'>`;

describe("pkg package test --junit", () => {
  it("collects a leg's command, script and script_inline tests in one file that JUnit consumers accept", async () => {
    const junit = join(work.path, "junit-1.2.3-linux-amd64-alpine_3.20.xml");
    const script = join(work.path, "smoke.star");
    await writeFile(
      script,
      'r = pkg.run("tool", "--help")\nexpect.ok(r)\nexpect.contains(r.stdout, "tool --help")\n',
    );
    const leg = [
      "-p",
      "linux/amd64+libc.musl",
      "--pkg-version",
      "1.2.3",
      "--image",
      "alpine:3.20",
      "--junit",
      junit,
      "--junit-property",
      "ci.job.url=https://ci.example/job/1?a=1&b=2",
    ];
    const run = (args: string[], input = "", extra: Record<string, string> = {}) =>
      runPkgWithInput(["package", "test", tool, ...leg, ...args], input, { ...env, ...extra });

    const command = await run(["--junit-name", "version", "--", "tool", "--version"]);
    expect(command.code, command.stderr).toBe(0);
    const scripted = await run(["--junit-name", "smoke", "--script", script]);
    expect(scripted.code, scripted.stderr).toBe(0);
    const inline = await run(
      ["--junit-name", `inline ${special}`, "--script", "-"],
      `expect.eq(pkg.env("PKG_TEST_NAME"), "nope ${special.replace(/"/g, '\\"')}")\n`,
    );
    expect(inline.code).toBe(1);
    const failing = await run(["--junit-name", "exit-code", "--", "tool", "x"], "", { TOOL_FAIL: "3" });
    expect(failing.code).toBe(1);
    const broken = await run(["--junit-name", "syntax", "--script", "-"], "x = (\n");
    expect(broken.code).toBe(65);

    const suite = "1.2.3.linux-amd64-musl.alpine_3.20";
    const ours = await readJUnitFile(junit);
    expect(ours.suites.map((s) => s.name)).toEqual([suite]);
    const [read] = ours.suites;
    expect(read?.cases.map((c) => c.name)).toEqual([
      "version",
      "smoke",
      `inline ${special}`,
      "exit-code",
      "syntax",
    ]);
    expect(read?.counts).toEqual({ tests: 5, failures: 2, errors: 1, skipped: 0 });
    expect(read?.properties).toEqual([{ name: "ci.job.url", value: "https://ci.example/job/1?a=1&b=2" }]);
    expect(read?.cases[3]).toMatchObject({
      classname: suite,
      failure: { type: "NonZeroExit", message: "exit 3" },
      systemErr: `failing as asked <&"\n`,
    });
    expect(read?.cases[2]?.failure).toEqual({
      type: "expect.eq",
      message: `<stdin>:1:10: expect.eq: got "inline ${special.replace(/"/g, '\\"')}", want "nope ${special.replace(/"/g, '\\"')}"`,
    });
    expect(read?.cases[4]?.error).toMatchObject({
      type: "script_error",
      message: expect.stringContaining("<stdin>:2:1:"),
    });

    const validated = await consumers.validate(junit);
    expect(validated, validated.output).toMatchObject({ code: 0 });
    const theirs = await consumers.junitparser(junit);
    expect(theirs.suites).toHaveLength(1);
    const [their] = theirs.suites;
    expect(their).toMatchObject({ name: suite, tests: 5, failures: 2, errors: 1, skipped: 0 });
    expect(their?.properties).toEqual({ "ci.job.url": "https://ci.example/job/1?a=1&b=2" });
    expect(their?.cases.map((c) => [c.name, c.classname, c.results.map((r) => [r.kind, r.type])])).toEqual([
      ["version", suite, []],
      ["smoke", suite, []],
      [`inline ${special}`, suite, [["Failure", "expect.eq"]]],
      ["exit-code", suite, [["Failure", "NonZeroExit"]]],
      ["syntax", suite, [["Error", "script_error"]]],
    ]);
    expect(their?.cases[2]?.results[0]?.message).toBe(read?.cases[2]?.failure?.message);
    expect(their?.cases[3]?.system_err).toBe(`failing as asked <&"\n`);
  });

  it("replaces a test's case when it runs again, and names the suite after version, platform and container", async () => {
    const junit = join(work.path, "rerun.xml");
    const first = await runPkgWithInput(
      [
        "package",
        "test",
        tool,
        "-p",
        "linux/amd64",
        "--pkg-version",
        "2.0",
        "--junit",
        junit,
        "--junit-name",
        "t",
        "--",
        "tool",
      ],
      "",
      { ...env, TOOL_FAIL: "1" },
    );
    expect(first.code).toBe(1);
    const second = await runPkgWithInput(
      [
        "package",
        "test",
        tool,
        "-p",
        "linux/amd64",
        "--pkg-version",
        "2.0",
        "--junit",
        junit,
        "--junit-name",
        "t",
        "--",
        "tool",
      ],
      "",
      env,
    );
    expect(second.code, second.stderr).toBe(0);
    const read = await readJUnitFile(junit);
    expect(read.suites).toMatchObject([
      { name: "2.0.linux-amd64.native", counts: { tests: 1, failures: 0 } },
    ]);
    expect(read.suites[0]?.cases).toEqual([
      { name: "t", classname: "2.0.linux-amd64.native", time: expect.any(Number) },
    ]);
    expect((await consumers.validate(junit)).code).toBe(0);
  });

  it("records an <error> case when the package cannot be made ready, then fails with that error's code", async () => {
    const junit = join(work.path, "missing.xml");
    const result = await runPkgWithInput(
      [
        "package",
        "test",
        join(work.path, "nope.tar.zst"),
        "-p",
        "linux/amd64",
        "--junit",
        junit,
        "--junit-name",
        "t",
        "--junit-suite",
        "s",
        "--",
        "tool",
      ],
      "",
      env,
    );
    expect(result.code).toBe(65);
    const read = await readJUnitFile(junit);
    expect(read.suites[0]?.cases[0]).toMatchObject({
      name: "t",
      classname: "s",
      error: { type: "script_error", message: expect.stringContaining("nope.tar.zst") },
    });
    expect((await consumers.validate(junit)).code).toBe(0);
  });
});
