import { describe, expect, it } from "vitest";
import { exitCodeOf, junitCaseOf, statusOfExitCode, summaryLine, type TestReport } from "./report.js";
import { containerId, defaultSuiteName, testVariables, versionOfTag } from "./test-env.js";

describe("test variables and names", () => {
  it("reads the version a tag names", () => {
    expect(versionOfTag("1.2.3_20250101120000")).toBe("1.2.3");
    expect(versionOfTag("1.2.3")).toBe("1.2.3");
    expect(versionOfTag("slim-2.0-rc1_20250101")).toBe("2.0-rc1");
    expect(versionOfTag("latest")).toBeUndefined();
    expect(versionOfTag(undefined)).toBeUndefined();
  });

  it("names containers and suites as the CI legs do", () => {
    // the spec's default id: ":" and "/" (and "@") become "_", nothing else changes (the mirror loader's rule)
    expect(containerId("alpine:3.20")).toBe("alpine_3.20");
    expect(containerId("ghcr.io/acme/base:1")).toBe("ghcr.io_acme_base_1");
    expect(containerId("docker.io/library/ubuntu:24.04")).toBe("docker.io_library_ubuntu_24.04");
    expect(containerId("alpine@sha256:ab12")).toBe("alpine_sha256_ab12");
    expect(containerId("")).toBe("native");
    expect(defaultSuiteName("1.2.3", "linux-amd64-musl", "alpine:3.20")).toBe(
      "1.2.3.linux-amd64-musl.alpine_3.20",
    );
    expect(defaultSuiteName("", "darwin-arm64", "")).toBe("unversioned.darwin-arm64.native");
  });

  it("sets every PKG_* variable", () => {
    expect(
      testVariables({
        installDir: "/p",
        version: "1",
        platformSlug: "linux-amd64",
        image: "",
        testName: "t",
      }),
    ).toEqual({
      PKG_INSTALL_DIR: "/p",
      PKG_VERSION: "1",
      PKG_PLATFORM: "linux-amd64",
      PKG_IMAGE: "",
      PKG_TEST_NAME: "t",
    });
  });
});

describe("reports", () => {
  const base: TestReport = {
    name: "smoke",
    kind: "command",
    platform: "linux/amd64",
    version: "1.0",
    status: "passed",
    message: null,
    assertion: null,
    run: null,
    duration_ms: 1500,
  };
  const run = {
    exit_code: 3,
    stdout: "out",
    stderr: "err",
    duration_ms: 10,
    truncated: false,
    timed_out: false,
  };

  it("maps statuses to exit codes and back", () => {
    expect(
      ["passed", "failed", "timeout", "usage", "script_error", "io"].map((s) =>
        exitCodeOf(s as TestReport["status"]),
      ),
    ).toEqual([0, 1, 1, 64, 65, 74]);
    expect([64, 65, 74, 69, 1].map(statusOfExitCode)).toEqual([
      "usage",
      "script_error",
      "io",
      "failed",
      "failed",
    ]);
  });

  it("turns a report into the JUnit case push gating reads", () => {
    expect(junitCaseOf(base, "s")).toEqual({ name: "smoke", classname: "s", time: 1.5 });
    expect(junitCaseOf({ ...base, status: "failed", message: "exit 3", run }, "s")).toEqual({
      name: "smoke",
      classname: "s",
      time: 1.5,
      failure: { type: "NonZeroExit", message: "exit 3" },
      systemOut: "out",
      systemErr: "err",
    });
    const assertion = { kind: "eq" as const, message: "expect.eq: got 1, want 2" };
    expect(
      junitCaseOf({ ...base, status: "failed", message: "x:1:1: expect.eq: got 1, want 2", assertion }, "s")
        .failure,
    ).toEqual({
      type: "expect.eq",
      message: "x:1:1: expect.eq: got 1, want 2",
    });
    expect(junitCaseOf({ ...base, status: "timeout", message: "killed" }, "s").failure?.type).toBe("timeout");
    expect(junitCaseOf({ ...base, status: "script_error", message: "bad" }, "s").error).toEqual({
      type: "script_error",
      message: "bad",
    });
    const long = "x".repeat(70 * 1024);
    expect(
      junitCaseOf({ ...base, status: "failed", message: "exit 1", run: { ...run, stderr: long } }, "s")
        .systemErr,
    ).toMatch(/^\[\.\.\. 6144 characters before\]\nx{65536}$/);
  });

  it("ends with one summary line", () => {
    expect(summaryLine(base)).toBe("PASS smoke (1.50 s)");
    expect(summaryLine({ ...base, status: "failed", message: "exit 3" })).toBe("FAIL smoke: exit 3");
    expect(summaryLine({ ...base, name: "", status: "timeout", message: "killed" })).toBe(
      "TIMEOUT command: killed",
    );
  });
});
