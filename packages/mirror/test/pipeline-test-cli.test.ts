// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} is the metadata's placeholder
// pipeline test through the built bins: a hand-written plan.json (the contract's shape), a real
// bundle made with pkg package create, a native leg whose tests run through pkg package test (one
// failing), a version whose bundle is missing, a re-run of one version, and a container leg that
// needs docker.
import { chmod, copyFile, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readJUnitFile } from "@pkg/package/junit";
import { runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bundleFileName,
  bundleMetadataFileName,
  junitFileName,
} from "../src/pipeline/documents/artifacts.js";
import type { PlanDocument } from "../src/pipeline/documents/plan-document.js";
import { judgePair } from "../src/pipeline/gating/index.js";
import { pkgBin } from "./support/sync-run.js";

const bin = fileURLToPath(new URL("../bin/pkg-mirror.js", import.meta.url));
const host = process.arch === "arm64" ? "linux/arm64" : "linux/amd64";
const slug = host.replace("/", "-");
const OLD = "1.0.0_20250101000000";
const NEW = "1.1.0_20250201000000";
const DRIFT = "0.9.0_20240101000000";
const STRICT = "<stdin>:1:10: expect.ok: exit code 3, want 0; stderr: strict check failed";
const JOB = "https://ci.example/acme/tool/actions/runs/7/job/9";

const plan: PlanDocument = {
  schema_version: 1,
  target: "registry.example/acme/tool",
  versions_resolved: { min_inclusive: true, max_inclusive: false },
  has_new: true,
  has_drift: true,
  versions: [
    { version: DRIFT, source_version: "0.9.0", kind: "metadata-drift", platforms: [], assets: [] },
    {
      version: OLD,
      source_version: "1.0.0",
      kind: "new",
      platforms: [host, "linux/arm64+libc.musl"],
      assets: [
        { platform: host, asset_name: "tool.tar.gz", url: "https://example.invalid/tool.tar.gz" },
        {
          platform: "linux/arm64+libc.musl",
          asset_name: "tool-musl.tar.gz",
          url: "https://example.invalid/m.tgz",
        },
      ],
    },
    {
      version: NEW,
      source_version: "1.1.0",
      kind: "new",
      platforms: [host],
      assets: [{ platform: host, asset_name: "tool.tar.gz", url: "https://example.invalid/tool-1.1.tar.gz" }],
    },
  ],
  legs: {
    [host]: {
      runner: ["ubuntu-latest"],
      platform_slug: slug,
      container_platform: host,
      containers: [{ id: "native", shell: "sh" }],
      tests: [
        {
          name: "version",
          command: `tool --version | grep -qx "tool $PKG_VERSION" && [ "$PKG_PLATFORM" = ${slug} ]`,
        },
        { name: "smoke", script: "tests/smoke.star" },
        { name: "strict", script_inline: 'expect.ok(pkg.run("tool", "--strict"))\n' },
      ],
      prefix: [],
    },
    "linux/arm64+libc.musl": {
      runner: ["ubuntu-24.04-arm"],
      platform_slug: "linux-arm64-musl",
      container_platform: "linux/arm64",
      containers: [{ id: "alpine_3.20", image: "alpine:3.20", shell: "sh", libc: "musl" }],
      tests: [{ name: "version", command: "tool --version" }],
      prefix: [],
    },
  },
};

let work: TempDir;
let bundles: string;
let junit: string;
let env: Record<string, string>;

const pipelineTest = (args: string[], extra: Record<string, string> = {}) =>
  runCli(
    bin,
    [
      "package",
      "pipeline",
      "test",
      "--plan",
      "plan.json",
      "--bundles-dir",
      "bundles",
      "--junit-dir",
      "junit",
      ...args,
    ],
    { cwd: work.path, env: { ...env, ...extra } },
  );

beforeAll(async () => {
  work = await tempDir("pkg-mirror-pipeline-test-");
  await mkdir(join(work.path, ".git"));
  bundles = join(work.path, "bundles");
  junit = join(work.path, "junit");
  env = {
    PKG_HOME: join(work.path, "pkg-home"),
    PATH: "/usr/bin:/bin",
    TMPDIR: work.path,
    PKG_MIRROR_JOB_URL: JOB,
  };
  // the package: bin/tool prints its version; --strict fails unless TOOL_STRICT_OK is set
  const tree = join(work.path, "tree");
  await mkdir(join(tree, "bin"), { recursive: true });
  await writeFile(
    join(tree, "bin", "tool"),
    '#!/bin/sh\ncase "$1" in\n  --version) echo "tool 1.0.0" ;;\n  --strict) [ -n "$TOOL_STRICT_OK" ] || { echo "strict check failed" >&2; exit 3; } ;;\nesac\n',
  );
  await chmod(join(tree, "bin", "tool"), 0o755);
  await writeFile(
    join(work.path, "metadata.json"),
    JSON.stringify({
      type: "bundle",
      version: 1,
      env: [{ key: "PATH", type: "path", value: "${installPath}/bin" }],
    }),
  );
  const made = await runCli(
    pkgBin,
    ["package", "create", tree, "-o", join(work.path, "out", "tool.tar.zst"), "-m", "metadata.json"],
    {
      cwd: work.path,
    },
  );
  expect(made.code, made.stderr).toBe(0);
  // prepare's names: only the older version has its bundle
  await mkdir(bundles, { recursive: true });
  await rename(join(work.path, "out", "tool.tar.zst"), join(bundles, bundleFileName(OLD, slug)));
  await copyFile(join(work.path, "out", "metadata.json"), join(bundles, bundleMetadataFileName(OLD, slug)));
  await mkdir(join(work.path, "tests"));
  await writeFile(
    join(work.path, "tests", "smoke.star"),
    'expect.contains(pkg.run("tool", "--version").stdout, "tool")\n',
  );
  await writeFile(join(work.path, "plan.json"), JSON.stringify(plan, null, 2));
}, 120_000);
afterAll(async () => {
  await work?.remove();
});

const cases = async (tag: string) => {
  const report = await readJUnitFile(join(junit, junitFileName(tag, slug, "native")));
  return report.suites.flatMap((s) =>
    s.cases.map((c) => [s.name, c.name, c.failure?.message ?? c.error?.message ?? "passed"]),
  );
};

describe("pkg-mirror package pipeline test", () => {
  it("runs every version the leg covers: one JUnit file each, a failing test and a missing bundle red, exit 1 at the end", async () => {
    const result = await pipelineTest(["--leg", host]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `pkg-mirror: leg ${host}: 4 of 6 test(s) failed (${OLD}, ${NEW}); the JUnit files say which`,
    );

    const suiteOld = `${OLD}.${slug}.native`;
    expect(await cases(OLD)).toEqual([
      [suiteOld, "version", "passed"],
      [suiteOld, "smoke", "passed"],
      [suiteOld, "strict", STRICT],
    ]);
    const report = await readJUnitFile(join(junit, junitFileName(OLD, slug, "native")));
    expect(report.suites[0]?.properties).toEqual([
      { name: "pkg.platform", value: host },
      { name: "ci.job.url", value: JOB },
    ]);
    expect(report.suites[0]?.counts).toEqual({ tests: 3, failures: 1, errors: 0, skipped: 0 });

    // the newer version was still tested: its bundle is missing, and its cases say so
    const missing = `bundle missing: ${bundleFileName(NEW, slug)} and ${bundleMetadataFileName(NEW, slug)} not in ${bundles}`;
    const suiteNew = `${NEW}.${slug}.native`;
    expect(await cases(NEW)).toEqual([
      [suiteNew, "version", missing],
      [suiteNew, "smoke", missing],
      [suiteNew, "strict", missing],
    ]);
    // nothing for the drift entry
    await expect(stat(join(junit, junitFileName(DRIFT, slug, "native")))).rejects.toThrow(/ENOENT/);

    // push's gating reads them: red, naming the failing test, with the job's link
    const old = await judgePair({ tag: OLD, platform: host, legs: plan.legs, junitDir: junit });
    expect(old.green).toBe(false);
    expect(old.failure).toMatchObject({ platform: host, reason: "test_failed", job_url: JOB });
    expect(old.testFailures.map((f) => [f.container, f.test])).toEqual([["native", "strict"]]);
    expect(old.failure?.message).toBe(`native/strict: failed: ${STRICT}`);
    const newer = await judgePair({ tag: NEW, platform: host, legs: plan.legs, junitDir: junit });
    expect(newer.testFailures.map((f) => f.message)).toEqual([
      `failed: ${missing}`,
      `failed: ${missing}`,
      `failed: ${missing}`,
    ]);
  });

  it("re-runs only the versions asked for, starting their JUnit file afresh", async () => {
    const before = await readFile(join(junit, junitFileName(NEW, slug, "native")), "utf8");
    const result = await pipelineTest(["--leg", host, "--version", OLD], { TOOL_STRICT_OK: "1" });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `${OLD} on ${host} (native): 3 test(s), all passed -> ${junitFileName(OLD, slug, "native")}`,
    );
    expect((await cases(OLD)).map((c) => c[2])).toEqual(["passed", "passed", "passed"]);
    expect(await readFile(join(junit, junitFileName(NEW, slug, "native")), "utf8")).toBe(before);
    const verdict = await judgePair({ tag: OLD, platform: host, legs: plan.legs, junitDir: junit });
    expect(verdict).toEqual({ green: true, testFailures: [] });
  });

  it("records a case for a test whose pkg ended before writing one (PKG_BIN names the pkg run)", async () => {
    const crashing = join(work.path, "crashing-pkg");
    await writeFile(crashing, '#!/bin/sh\necho "pkg: cannot open the store" >&2\nexit 74\n');
    await chmod(crashing, 0o755);
    const result = await pipelineTest(["--leg", host, "--version", OLD], { PKG_BIN: crashing });
    expect(result.code).toBe(1);
    const why = "pkg package test exited 74: pkg: cannot open the store";
    expect((await cases(OLD)).map((c) => c.slice(1))).toEqual([
      ["version", why],
      ["smoke", why],
      ["strict", why],
    ]);
    const verdict = await judgePair({ tag: OLD, platform: host, legs: plan.legs, junitDir: junit });
    expect(verdict.testFailures.map((f) => f.message)).toEqual([
      `error: ${why}`,
      `error: ${why}`,
      `error: ${why}`,
    ]);
  });

  it("refuses a version, leg or container the plan does not have (65)", async () => {
    const version = await pipelineTest(["--leg", host, "--version", "9.9.9"]);
    expect(version.code).toBe(65);
    expect(version.stderr.trim()).toBe(
      `pkg-mirror: --version 9.9.9: not in plan.json (versions: ${DRIFT}, ${OLD}, ${NEW})`,
    );
    const leg = await pipelineTest(["--leg", "darwin/arm64"]);
    expect(leg.code).toBe(65);
    expect(leg.stderr.trim()).toBe(
      `pkg-mirror: --leg darwin/arm64: plan.json has no such leg (legs: ${host}, linux/arm64+libc.musl)`,
    );
    const container = await pipelineTest(["--leg", host, "--container", "alpine_3.20"]);
    expect(container.code).toBe(65);
  });

  it("fails a container leg without docker with one line naming docker (69)", async () => {
    const result = await pipelineTest(["--leg", "linux/arm64+libc.musl"]);
    expect(result.code).toBe(69);
    expect(result.stderr.trim()).toBe(
      "pkg-mirror: leg linux/arm64+libc.musl runs its tests in containers (alpine_3.20) through docker, and docker is not on PATH",
    );
  });

  it("prints a container leg's commands with --dry-run, running nothing", async () => {
    const result = await pipelineTest([
      "--leg",
      "linux/arm64+libc.musl",
      "--dry-run",
      "--static-pkg",
      "/opt/pkg/pkg",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toBe("# leg linux/arm64+libc.musl container alpine_3.20: once per leg");
    expect(lines).toContain("set -eu");
    expect(lines).toContain("  until docker pull --platform 'linux/arm64' 'alpine:3.20'; do");
    const file = junitFileName(OLD, "linux-arm64-musl", "alpine_3.20");
    expect(lines.at(-1)).toBe(
      [
        "'docker' 'run' '--rm' '-i' '--platform' 'linux/arm64'",
        `'-v' '${work.path}:${work.path}' '-w' '${work.path}'`,
        "'-v' '/opt/pkg/pkg:/usr/local/bin/pkg:ro'",
        "'-v' '/etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro'",
        "'-e' 'PKG_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' '-e' 'PKG_HOME=/tmp/pkg-home' 'alpine:3.20' 'pkg'",
        `'package' 'test' '${join(bundles, bundleFileName(OLD, "linux-arm64-musl"))}'`,
        `'-m' '${join(bundles, bundleMetadataFileName(OLD, "linux-arm64-musl"))}'`,
        "'--platform' 'linux/arm64+libc.musl' '--pkg-version' '1.0.0' '--image' 'alpine:3.20'",
        `'--junit' '${join(junit, file)}' '--junit-name' 'version' '--junit-suite' '${OLD}.linux-arm64-musl.alpine_3.20'`,
        `'--junit-property' 'pkg.platform=linux/arm64+libc.musl' '--junit-property' 'ci.job.url=${JOB}'`,
        "'--' 'sh' '-c' 'tool --version'",
      ].join(" "),
    );
    await expect(stat(join(junit, file))).rejects.toThrow(/ENOENT/);
  });
});
