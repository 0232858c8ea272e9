// Push gating as tables: which containers gate an entry (libc rules, legs by full then base key,
// fail-closed when none), and the JUnit verdict read from real files (missing, unreadable, a test
// absent, failures counted only at suite level, errors, skipped, two entries in one file).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { junitFileName } from "../src/pipeline/documents/artifacts.js";
import type { PlanContainer, PlanLeg } from "../src/pipeline/documents/plan-document.js";
import type { FailureReason } from "../src/pipeline/documents/run-summary.js";
import { gatingContainers, judgePair } from "../src/pipeline/gating/index.js";

const TAG = "1.2.3_20250101120000";
const tests = [
  { name: "version", command: "tool --version" },
  { name: "smoke", script: "tests/smoke.star" },
];
const native: PlanContainer = { id: "native", shell: "bash" };
const alpine: PlanContainer = { id: "alpine_3.20", image: "alpine:3.20", shell: "sh", libc: "musl" };
const ubuntu: PlanContainer = { id: "ubuntu_24.04", image: "ubuntu:24.04", shell: "bash", libc: "glibc" };

function leg(key: string, slug: string, containers: PlanContainer[]): PlanLeg {
  return {
    runner: ["ubuntu-latest"],
    platform_slug: slug,
    container_platform: key.replace(/\+.*$/, ""),
    containers,
    tests,
    prefix: [],
  };
}

const legs: Record<string, PlanLeg> = {
  "linux/amd64": leg("linux/amd64", "linux-amd64", [alpine, ubuntu]),
  "linux/arm64": leg("linux/arm64", "linux-arm64", [native]),
  "linux/arm64+libc.musl": leg("linux/arm64+libc.musl", "linux-arm64-musl", [alpine]),
  "darwin/arm64": leg("darwin/arm64", "darwin-arm64", [native]),
  "linux/arm/v7": leg("linux/arm/v7", "linux-arm-v7", [native]),
};

describe("gatingContainers", () => {
  const rows: Array<{ entry: string; leg?: string; containers?: string[]; uncovered?: RegExp }> = [
    { entry: "linux/amd64", leg: "linux/amd64", containers: ["alpine_3.20", "ubuntu_24.04"] },
    { entry: "linux/amd64+libc.musl", leg: "linux/amd64", containers: ["alpine_3.20"] },
    { entry: "linux/amd64+libc.glibc", leg: "linux/amd64", containers: ["ubuntu_24.04"] },
    { entry: "linux/arm64", leg: "linux/arm64", containers: ["native"] },
    { entry: "linux/arm64+libc.glibc", leg: "linux/arm64", containers: ["native"] },
    // the leg keyed by the full key wins over the base key's
    { entry: "linux/arm64+libc.musl", leg: "linux/arm64+libc.musl", containers: ["alpine_3.20"] },
    { entry: "darwin/arm64", leg: "darwin/arm64", containers: ["native"] },
    { entry: "linux/arm/v7+libc.glibc", leg: "linux/arm/v7", containers: ["native"] },
    { entry: "linux/arm/v7+libc.musl", uncovered: /^leg linux\/arm\/v7 has no container that may test/ },
    {
      entry: "windows/amd64",
      uncovered: /^no test leg covers windows\/amd64: platforms has neither windows\/amd64$/,
    },
    {
      entry: "linux/riscv64+libc.musl",
      uncovered:
        /^no test leg covers linux\/riscv64\+libc\.musl: platforms has neither linux\/riscv64\+libc\.musl nor linux\/riscv64$/,
    },
    { entry: "not a key", uncovered: /^not a key is not a platform key/ },
  ];
  it.each(rows)("$entry", ({ entry, leg: legKey, containers, uncovered }) => {
    const selection = gatingContainers(entry, legs);
    if (uncovered !== undefined) {
      expect(selection.covered).toBe(false);
      if (!selection.covered) expect(selection.message).toMatch(uncovered);
      return;
    }
    expect(selection.covered).toBe(true);
    if (!selection.covered) return;
    expect(selection.legKey).toBe(legKey);
    expect(selection.containers.map((c) => c.id)).toEqual(containers);
  });

  it("fails closed for a musl entry on a native leg, and a glibc entry on a musl-only leg", () => {
    const nativeOnly = { "linux/arm64": leg("linux/arm64", "linux-arm64", [native]) };
    expect(gatingContainers("linux/arm64+libc.musl", nativeOnly)).toEqual({
      covered: false,
      message:
        "leg linux/arm64 has no container that may test linux/arm64+libc.musl: a +libc.musl entry is gated only by musl images",
    });
    const muslOnly = { "linux/amd64": leg("linux/amd64", "linux-amd64", [alpine]) };
    expect(gatingContainers("linux/amd64+libc.glibc", muslOnly)).toEqual({
      covered: false,
      message:
        "leg linux/amd64 has no container that may test linux/amd64+libc.glibc: a +libc.glibc entry is gated only by glibc images and native legs",
    });
  });

  it("finds a leg written in a non-canonical spelling", () => {
    const selection = gatingContainers("linux/amd64+libc.musl", {
      "linux/amd64+libc.musl": leg("linux/amd64+libc.musl", "linux-amd64-musl", [alpine]),
    });
    expect(selection.covered && selection.legKey).toBe("linux/amd64+libc.musl");
  });
});

// JUnit documents, as the test legs (or another renderer) write them
const suite = (name: string, body: string, attrs = "", properties: Record<string, string> = {}) => {
  const props = Object.entries(properties)
    .map(([k, v]) => `<property name="${k}" value="${v}"/>`)
    .join("");
  return `<testsuite name="${name}" ${attrs}>${props === "" ? "" : `<properties>${props}</properties>`}${body}</testsuite>`;
};
const doc = (...suites: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>${suites.join("")}</testsuites>\n`;
const passed = (name: string) => `<testcase name="${name}" classname="c" time="0.1"/>`;
const failed = (name: string, message = "exit 3") =>
  `<testcase name="${name}" classname="c" time="0.1"><failure type="NonZeroExit" message="${message}"/></testcase>`;
const green = doc(suite("s", passed("version") + passed("smoke")));

type Files = Record<string, string>; // container id -> document (on the leg of the entry)

interface Row {
  name: string;
  platform: string;
  files: Files;
  green: boolean;
  reason?: FailureReason;
  failures?: Array<[container: string, test: string, message: RegExp | string]>;
  jobUrl?: string;
}

const rows: Row[] = [
  { name: "every gating file green", platform: "linux/arm64", files: { native: green }, green: true },
  {
    name: "missing JUnit",
    platform: "linux/arm64",
    files: {},
    green: false,
    reason: "missing_junit",
    failures: [["native", "<junit>", /^junit-1\.2\.3_20250101120000-linux-arm64-native\.xml not found in /]],
  },
  {
    name: "unparsable JUnit",
    platform: "linux/arm64",
    files: { native: "<testsuites><testsuite" },
    green: false,
    reason: "missing_junit",
    failures: [["native", "<junit>", /not well-formed XML/]],
  },
  {
    name: "a root that is not JUnit",
    platform: "linux/arm64",
    files: { native: "<html/>" },
    green: false,
    reason: "missing_junit",
    failures: [["native", "<junit>", /the root element is <html>/]],
  },
  {
    name: "a declared test name absent",
    platform: "linux/arm64",
    files: { native: doc(suite("s", passed("version"))) },
    green: false,
    reason: "test_failed",
    failures: [
      ["native", "smoke", "test 'smoke' not found in junit-1.2.3_20250101120000-linux-arm64-native.xml"],
    ],
  },
  {
    name: "a failure element",
    platform: "linux/arm64",
    files: { native: doc(suite("s", passed("version") + failed("smoke"))) },
    green: false,
    reason: "test_failed",
    failures: [["native", "smoke", "failed: exit 3"]],
  },
  {
    name: "an error element",
    platform: "linux/arm64",
    files: {
      native: doc(
        suite(
          "s",
          `${passed("version")}<testcase name="smoke" classname="c"><error message="syntax error at 1:5"/></testcase>`,
        ),
      ),
    },
    green: false,
    reason: "test_failed",
    failures: [["native", "smoke", "error: syntax error at 1:5"]],
  },
  {
    name: "failures counted at suite level only",
    platform: "linux/arm64",
    files: {
      native: doc(suite("s", passed("version") + passed("smoke"), 'tests="2" failures="1" errors="0"')),
    },
    green: false,
    reason: "test_failed",
    failures: [["native", "<suite>", "suite s counts 1 failure(s) and 0 error(s) that no test case carries"]],
  },
  {
    name: "errors counted at suite level only",
    platform: "linux/arm64",
    files: { native: doc(suite("s", passed("version") + passed("smoke"), 'tests="2" errors="2"')) },
    green: false,
    reason: "test_failed",
    failures: [["native", "<suite>", "suite s counts 0 failure(s) and 2 error(s) that no test case carries"]],
  },
  {
    name: "skipped counts as pass",
    platform: "linux/arm64",
    files: {
      native: doc(
        suite(
          "s",
          `${passed("version")}<testcase name="smoke" classname="c"><skipped/></testcase>`,
          'tests="2" skipped="1"',
        ),
      ),
    },
    green: true,
  },
  {
    name: "a bare <testsuite> root",
    platform: "linux/arm64",
    files: { native: suite("s", passed("version") + passed("smoke")) },
    green: true,
  },
  {
    name: "musl entry: only the musl image gates (the glibc image's file may be missing)",
    platform: "linux/amd64+libc.musl",
    files: { "alpine_3.20": green },
    green: true,
  },
  {
    name: "musl entry: the musl image failing reds it",
    platform: "linux/amd64+libc.musl",
    files: { "alpine_3.20": doc(suite("s", failed("version") + passed("smoke"))), "ubuntu_24.04": green },
    green: false,
    reason: "test_failed",
    failures: [["alpine_3.20", "version", "failed: exit 3"]],
  },
  {
    name: "glibc entry: only the glibc image gates",
    platform: "linux/amd64+libc.glibc",
    files: { "ubuntu_24.04": green, "alpine_3.20": doc(suite("s", failed("version"))) },
    green: true,
  },
  {
    name: "glibc entry on a native leg: the native leg gates",
    platform: "linux/arm64+libc.glibc",
    files: { native: green },
    green: true,
  },
  {
    name: "featureless entry: every container gates (one file missing)",
    platform: "linux/amd64",
    files: { "ubuntu_24.04": green },
    green: false,
    reason: "missing_junit",
    failures: [
      ["alpine_3.20", "<junit>", /^junit-1\.2\.3_20250101120000-linux-amd64-alpine_3\.20\.xml not found/],
    ],
  },
  {
    name: "featureless entry: every container green",
    platform: "linux/amd64",
    files: { "ubuntu_24.04": green, "alpine_3.20": green },
    green: true,
  },
  {
    name: "a missing file outranks a test failure; both are listed",
    platform: "linux/amd64",
    files: { "alpine_3.20": doc(suite("s", failed("version") + passed("smoke"))) },
    green: false,
    reason: "missing_junit",
    failures: [
      ["alpine_3.20", "version", "failed: exit 3"],
      ["ubuntu_24.04", "<junit>", /not found/],
    ],
  },
  {
    name: "an entry no leg covers",
    platform: "windows/amd64",
    files: {},
    green: false,
    reason: "no_test_leg",
    failures: [],
  },
  {
    name: "a musl entry on a native leg fails closed",
    platform: "linux/arm/v7+libc.musl",
    files: {},
    green: false,
    reason: "no_test_leg",
    failures: [],
  },
  {
    name: "the first non-empty ci.job.url is the job link",
    platform: "linux/arm64",
    files: {
      native: doc(
        suite("a", passed("version"), "", { "ci.job.url": " " }),
        suite("b", failed("smoke"), "", { "ci.job.url": "https://ci.example/jobs/7" }),
        suite("c", passed("x"), "", { "ci.job.url": "https://ci.example/jobs/8" }),
      ),
    },
    green: false,
    reason: "test_failed",
    failures: [["native", "smoke", "failed: exit 3"]],
    jobUrl: "https://ci.example/jobs/7",
  },
  {
    name: "two entries in one file: the featureless entry is judged by its own suite",
    platform: "linux/amd64",
    files: {
      "alpine_3.20": doc(
        suite("f", passed("version") + passed("smoke"), "", { "pkg.platform": "linux/amd64" }),
        suite("m", failed("version") + passed("smoke"), "", { "pkg.platform": "linux/amd64+libc.musl" }),
      ),
      "ubuntu_24.04": green,
    },
    green: true,
  },
  {
    name: "two entries in one file: the musl entry is judged by its own suite",
    platform: "linux/amd64+libc.musl",
    files: {
      "alpine_3.20": doc(
        suite("f", passed("version") + passed("smoke"), "", { "pkg.platform": "linux/amd64" }),
        suite("m", failed("version") + passed("smoke"), "", { "pkg.platform": "linux/amd64+libc.musl" }),
      ),
    },
    green: false,
    reason: "test_failed",
    failures: [["alpine_3.20", "version", "failed: exit 3"]],
  },
];

let work: TempDir;
beforeAll(async () => {
  work = await tempDir("pkg-mirror-gating-");
});
afterAll(async () => {
  await work?.remove();
});

describe("judgePair", () => {
  it.each(rows.map((row, i) => ({ ...row, i })))("$name", async (row) => {
    const junitDir = join(work.path, String(row.i));
    await mkdir(junitDir, { recursive: true });
    const selection = gatingContainers(row.platform, legs);
    const slug = selection.covered ? selection.leg.platform_slug : "none";
    for (const [container, text] of Object.entries(row.files)) {
      await writeFile(join(junitDir, junitFileName(TAG, slug, container)), text);
    }
    const verdict = await judgePair({ tag: TAG, platform: row.platform, legs, junitDir });
    expect(verdict.green).toBe(row.green);
    if (row.green) {
      expect(verdict.failure).toBeUndefined();
      expect(verdict.testFailures).toEqual([]);
      return;
    }
    expect(verdict.failure?.platform).toBe(row.platform);
    expect(verdict.failure?.reason).toBe(row.reason);
    expect(verdict.failure?.message).not.toMatch(/\n/);
    expect(verdict.failure?.job_url).toBe(row.jobUrl);
    const failures = row.failures ?? [];
    expect(verdict.testFailures.map((f) => [f.container, f.test])).toEqual(failures.map(([c, t]) => [c, t]));
    verdict.testFailures.forEach((f, i) => {
      expect(f.platform).toBe(row.platform);
      const want = failures[i]?.[2];
      if (typeof want === "string") expect(f.message).toBe(want);
      else expect(f.message).toMatch(want as RegExp);
    });
  });

  it("says why in one line, every finding joined", async () => {
    const junitDir = join(work.path, "joined");
    await mkdir(junitDir, { recursive: true });
    await writeFile(
      join(junitDir, junitFileName(TAG, "linux-arm64", "native")),
      doc(suite("s", failed("version", "exit 2"))),
    );
    const verdict = await judgePair({ tag: TAG, platform: "linux/arm64", legs, junitDir });
    expect(verdict.failure).toEqual({
      platform: "linux/arm64",
      reason: "test_failed",
      message: `native/smoke: test 'smoke' not found in ${junitFileName(TAG, "linux-arm64", "native")}; native/version: failed: exit 2`,
    });
  });
});
