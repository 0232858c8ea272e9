// `pkg package test --script`: the Starlark host API (pkg.*, expect.*), statuses and exit codes.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { silentLogger } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePlatformKey } from "../src/platform/key.js";
import { runPackageTest } from "../src/test-run/run-test.js";
import { brokenPackage, runPkgWithInput, toolPackage } from "./support/package-test.js";

let work: TempDir;
let tool: string;
let broken: string;
let env: Record<string, string>;

beforeAll(async () => {
  work = await tempDir("pkg-package-test-script-");
  [tool, broken] = await Promise.all([toolPackage(work.path), brokenPackage(work.path)]);
  env = { PKG_HOME: join(work.path, "home"), PATH: "/usr/bin:/bin", TMPDIR: work.path };
});
afterAll(async () => {
  await work?.remove();
});

/** Runs `source` as `--script -` against `bundle` with a JSON report. */
async function inline(
  source: string,
  bundle = tool,
  extra: string[] = [],
  extraEnv: Record<string, string> = {},
) {
  const result = await runPkgWithInput(
    ["package", "test", bundle, "-p", "linux/arm64+libc.musl", "--script", "-", "--format", "json", ...extra],
    source,
    { ...env, ...extraEnv },
  );
  return { ...result, report: result.stdout === "" ? undefined : JSON.parse(result.stdout) };
}

describe("test scripts: the host API", () => {
  it("runs programs, reads and writes scratch files, and sees the platform, roots and environment", async () => {
    const source = `
r = pkg.run("tool", "a", "b")
expect.ok(r)
expect.eq(type(r), "run_result")
expect.eq(r.exit_code, 0)
expect.contains(r.stdout, "tool a b")
expect.matches(r.stdout, "(?m)^tool a b$")
expect.true(r.duration_ms >= 0)
expect.false(r.truncated)
expect.eq(r.stderr, "")
expect.contains(pkg.run(["tool", "one list"]).stdout, "tool one list")
expect.contains(pkg.run("tool-hello").stdout, "tool hello")

pkg.mkdir("sub/deeper")
e = pkg.run("sh", "-c", 'echo "$EXTRA"; cat; echo; pwd', env = {"EXTRA": "x"}, stdin = "from stdin", cwd = "sub")
expect.eq(e.stdout, "x\\nfrom stdin\\n" + pkg.scratch_root + "/sub\\n")
expect.eq(pkg.run("pwd").stdout, pkg.scratch_root + "\\n")

pkg.write_file("sub/f.txt", "hello <&>\\n")
expect.true(pkg.exists("sub/f.txt"))
expect.true(pkg.exists(pkg.scratch_root + "/sub/deeper"))
expect.false(pkg.exists("nothing"))
expect.eq(pkg.read_file("sub/f.txt"), "hello <&>\\n")
expect.eq(pkg.read_file(pkg.package_root + "/share/data.txt"), "data of the package\\n")
expect.true(pkg.package_root.endswith("/package/content"))
expect.eq(pkg.env("PKG_INSTALL_DIR"), pkg.package_root)
expect.eq(pkg.env("PKG_TEST_NAME"), "api")
expect.eq(pkg.env("PKG_PLATFORM"), "linux-arm64-musl")
expect.eq(pkg.env("TOOL_HOME"), pkg.package_root)
expect.eq(pkg.env("TOOL_SECRET"), None)
expect.eq(pkg.env("PKG_AUTH_REGISTRY_TOKEN"), None)
expect.eq(pkg.env("NOT_SET_ANYWHERE"), None)

p = pkg.target_platform
expect.eq(p.os, pkg.os.Linux)
expect.eq(p.arch, pkg.arch.Arm64)
expect.ne(p.os, pkg.os.Windows)
expect.ne(p.os, "linux")
expect.eq(type(p.os), "os")
expect.eq(type(pkg.arch.Amd64), "arch")
expect.eq(str(p), "linux/arm64")
expect.eq(str(p.os), "linux")
if p.os == pkg.os.Darwin:
    fail("not darwin")
expect.contains([1, 2], 2)
expect.contains({"k": 1}, "k")
print("printed to stderr")
`;
    const result = await inline(source, tool, ["--junit-name", "api"], { PKG_AUTH_REGISTRY_TOKEN: "secret" });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.report).toMatchObject({
      status: "passed",
      kind: "script_inline",
      assertion: null,
      message: null,
    });
    // the last run: pkg.run("pwd")
    expect(result.report.run.stdout).toMatch(/\/pkg-test-[^/]+\/scratch\n$/);
    expect(result.stderr).toBe("printed to stderr\n");
  });

  it("runs a script file (--script FILE), naming it in positions", async () => {
    const file = join(work.path, "smoke.star");
    await writeFile(
      file,
      'r = pkg.run("tool", "--version")\nexpect.eq(r.exit_code, 0)\nexpect.contains(r.stdout, "tool --version 2")\n',
    );
    const result = await runPkgWithInput(
      ["package", "test", tool, "-p", "linux/amd64", "--script", file, "--format", "json"],
      "",
      env,
    );
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ kind: "script", status: "failed", assertion: { kind: "contains" } });
    expect(report.message).toMatch(
      new RegExp(`^${file.replace(/[.]/g, "\\.")}:3:16: expect.contains: "tool --version\\\\n`),
    );
    expect(report.assertion.message).toContain('does not contain "tool --version 2"');
  });
});

describe("test scripts: how they end", () => {
  const failures: Array<[string, string, string]> = [
    ['expect.eq(1, 2, "numbers")', "eq", "expect.eq: numbers: got 1, want 2"],
    ['expect.eq("a<&\\"", ["b"])', "eq", 'expect.eq: got "a<&\\"", want ["b"]'],
    ["expect.ne(1, 1)", "ne", "expect.ne: got 1, want anything but 1"],
    ["expect.true(0)", "true", "expect.true: got 0, want a true value"],
    ['expect.false("x")', "false", 'expect.false: got "x", want a false value'],
    ["expect.contains([1, 2], 3)", "contains", "expect.contains: [1, 2] does not contain 3"],
    ['expect.matches("abc", "^b")', "matches", 'expect.matches: "abc" does not match "^b"'],
    ['expect.fail("boom")', "fail", "expect.fail: boom"],
    ['fail("boom")', "fail", "boom"],
    [
      'expect.ok(pkg.run("sh", "-c", "echo oops >&2; exit 4"), "tool works")',
      "ok",
      "expect.ok: tool works: exit code 4, want 0; stderr: oops",
    ],
    ['pkg.read_file("missing.txt")', "other", "pkg.read_file: ENOENT"],
    ['pkg.run("no-such-program")', "other", "pkg.run: no-such-program: not found in the package nor on PATH"],
  ];
  for (const [line, kind, message] of failures) {
    it(`fails (1) with assertion ${kind}: ${line}`, async () => {
      const result = await inline(`x = 1\n${line}\n`);
      expect(result.code, result.stderr).toBe(1);
      expect(result.report.status).toBe("failed");
      expect(result.report.assertion.kind).toBe(kind);
      expect(result.report.assertion.message).toContain(message);
      expect(result.report.message).toMatch(/^<stdin>:2:\d+: /);
    });
  }

  it("keeps the last run in the report", async () => {
    const result = await inline(
      'pkg.run("tool", "first")\nr = pkg.run("sh", "-c", "echo second; exit 2")\nexpect.ok(r)\n',
    );
    expect(result.report.run).toMatchObject({ exit_code: 2, stdout: "second\n", truncated: false });
  });

  const scriptErrors: Array<[string, string]> = [
    ["x = (", "<stdin>:2:1: got end of file, want an expression"],
    ['y = 1 + "a"', "unsupported binary operation: int + string"],
    ['expect.matches("a", "(")', "invalid pattern"],
    ['pkg.write_file("../x", "")', '".." is not allowed'],
    ['pkg.read_file("/etc/hostname")', "is not inside the scratch directory or the package"],
    ['pkg.write_file(pkg.package_root + "/x", "")', "the package is read-only"],
    ['pkg.mkdir(pkg.package_root + "/d")', "the package is read-only"],
    ['pkg.run("tool", env = {"PATH": "/x"})', "env may not set PATH"],
    ['pkg.run("ln", "-s", "/etc", "esc")\npkg.read_file("esc/hostname")', "through a symbolic link"],
    ['pkg.run("tool", "a", 1.5)', "want a string"],
    ['pkg.run(["tool"], "a")', "not both"],
  ];
  for (const [source, message] of scriptErrors) {
    it(`is a script error (65): ${source.split("\n").at(-1)}`, async () => {
      const result = await inline(`${source}\n`);
      expect(result.code, result.stderr).toBe(65);
      expect(result.report).toMatchObject({ status: "script_error", assertion: null });
      expect(result.report.message).toContain(message);
    });
  }

  it("refuses a shipped program of mode 0644 in pkg.run with 65 naming the file", async () => {
    const result = await inline('pkg.run("tool")\n', broken);
    expect(result.code).toBe(65);
    expect(result.report.message).toMatch(
      /package\/content\/bin\/tool: the package ships tool but it is not executable \(mode 0644\)/,
    );
  });

  it("caps each output stream at 10 MiB and says so", async () => {
    const source = `
r = pkg.run("sh", "-c", "head -c 11000000 /dev/zero | tr '\\\\\\\\0' a; echo err >&2")
expect.true(r.truncated)
expect.eq(len(r.stdout), 10 * 1024 * 1024)
expect.eq(r.stderr, "err\\n")
`;
    const result = await runPkgWithInput(
      ["package", "test", tool, "-p", "linux/amd64", "--script", "-"],
      source,
      env,
    );
    expect(result.code, result.stderr).toBe(0);
  });
});

describe("test scripts: the deadline of pkg.run", () => {
  const run = (source: string) =>
    runPackageTest({
      subject: { kind: "bundle", bundles: [tool] },
      form: { kind: "script_inline", source },
      platform: parsePlatformKey("linux/amd64"),
      name: "slow",
      image: "",
      source: { kind: "registry" },
      offline: false,
      echo: false,
      log: silentLogger,
      env: { ...process.env, ...env },
      runDeadlineMs: 500,
    });

  it("kills a run past its deadline and ends the test as timeout", async () => {
    const report = await run('pkg.run("sleep", "30")\nfail("not reached")\n');
    expect(report).toMatchObject({ status: "timeout", run: { timed_out: true, exit_code: 137 } });
    expect(report.message).toContain("pkg.run: sleep was killed after 0.5 s");
  });

  it("ends a run whose background child holds its output open past the deadline", async () => {
    const report = await run('pkg.run("sh", "-c", "sleep 30 & echo started")\n');
    expect(report).toMatchObject({ status: "timeout", run: { timed_out: true, stdout: "started\n" } });
  });
});
