import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describeError, isPkgError, type Logger } from "@pkg/common";
import { parseReference, parseRepositoryReference } from "@pkg/oci";
import { type EnvOs, hostEnvOs } from "../exec/compose-env.js";
import { packageEnvironment } from "../exec/plan-exec.js";
import { addTestCaseToFile } from "../junit/file.js";
import { hostFromPlatformKey } from "../platform/host.js";
import { type PlatformKey, platformSlug } from "../platform/key.js";
import type { PackageSource } from "../store/source.js";
import { BlockingRunner } from "./blocking-run.js";
import type { CapturedRun } from "./capture.js";
import { type Materialised, materialise, type TestSubject } from "./materialise.js";
import {
  type Assertion,
  junitCaseOf,
  statusOfExitCode,
  type TestKind,
  type TestReport,
  type TestStatus,
} from "./report.js";
import { performRun } from "./run-request.js";
import { runScript } from "./script/run-script.js";
import { defaultSuiteName, testVariables, versionOfTag } from "./test-env.js";

/** What to run: a command line, or a Starlark script (from a file, or its text from stdin). */
export type TestForm =
  | { kind: "command"; argv: string[] }
  | { kind: "script"; source: string; file: string }
  | { kind: "script_inline"; source: string };

export interface JUnitRequest {
  file: string;
  /** The suite (and classname); default `<version>.<platform slug>.<container id>`. */
  suite?: string;
  properties?: Array<{ name: string; value: string }>;
}

export interface TestRequest {
  subject: TestSubject;
  form: TestForm;
  platform: PlatformKey;
  /** The test's name: `PKG_TEST_NAME` and the JUnit case's name. */
  name: string;
  /** `PKG_VERSION`; default: the version the reference's tag names. */
  version?: string;
  /** `PKG_IMAGE`: the container image of the leg, "" natively. */
  image: string;
  source: PackageSource;
  offline: boolean;
  junit?: JUnitRequest;
  /** Pass the command's output on as it comes (text output). */
  echo: boolean;
  log: Logger;
  env?: Readonly<Record<string, string | undefined>>;
  os?: EnvOs;
  /** `pkg.run`'s deadline (default 300 s). */
  runDeadlineMs?: number;
}

/**
 * Runs one test of a package: materialises it (as `pkg exec` would), runs the command or script
 * in a fresh scratch directory with the package's consumer environment and the `PKG_*`
 * variables, and reports how it went; with `junit`, adds its case to that file. An error before
 * the test could run (the package cannot be fetched or extracted) is thrown, after recording a
 * JUnit `<error>` case.
 */
export async function runPackageTest(request: TestRequest): Promise<TestReport> {
  const env = request.env ?? process.env;
  const os = request.os ?? hostEnvOs();
  const version =
    request.version ??
    (request.subject.kind === "reference"
      ? versionOfTag(tagOf(request.subject.identifier, request.source))
      : undefined) ??
    env.PKG_VERSION ??
    "";
  const started = performance.now();
  const base: Omit<TestReport, "status" | "message" | "assertion" | "run" | "duration_ms"> = {
    name: request.name,
    kind: request.form.kind as TestKind,
    platform: request.platform.key,
    version,
  };
  const finish = (
    status: TestStatus,
    message: string | null,
    assertion: Assertion | null,
    run: CapturedRun | null,
  ): TestReport => ({
    ...base,
    status,
    message,
    assertion,
    run,
    duration_ms: Math.round(performance.now() - started),
  });
  let materialised: Materialised;
  try {
    materialised = await materialise(request.subject, {
      source: request.source,
      host: hostFromPlatformKey(request.platform.key),
      offline: request.offline,
      os,
      log: request.log,
      env,
    });
  } catch (error) {
    if (request.junit !== undefined) {
      const { exitCode, line } = describeError(error);
      const report = finish(
        statusOfExitCode(exitCode),
        `the package could not be made ready: ${line}`,
        null,
        null,
      );
      await record(request, report, version);
    }
    throw error;
  }
  let report: TestReport;
  try {
    const scratch = join(materialised.work, "scratch");
    await mkdir(scratch);
    const { env: composed, packageDirs } = packageEnvironment(materialised.pkg, "consumer", env, os);
    const testEnv = {
      ...composed,
      ...testVariables({
        installDir: materialised.root,
        version,
        platformSlug: platformSlug(request.platform),
        image: request.image,
        testName: request.name,
      }),
    };
    const outcome = await runForm(request, {
      env: testEnv,
      packageDirs,
      hostPath: env.PATH,
      os,
      scratch,
      root: materialised.root,
    });
    report = finish(outcome.status, outcome.message, outcome.assertion, outcome.run);
  } finally {
    await materialised.dispose();
  }
  if (request.junit !== undefined) await record(request, report, version);
  return report;
}

interface Prepared {
  env: Record<string, string>;
  packageDirs: string[];
  hostPath: string | undefined;
  os: EnvOs;
  scratch: string;
  root: string;
}

interface Outcome {
  status: TestStatus;
  message: string | null;
  assertion: Assertion | null;
  run: CapturedRun | null;
}

async function runForm(request: TestRequest, prepared: Prepared): Promise<Outcome> {
  const { form } = request;
  if (form.kind === "command") return runCommandForm(form.argv, request, prepared);
  const runner = new BlockingRunner();
  try {
    return runScript(
      form.source,
      form.kind === "script" ? form.file : "<stdin>",
      {
        roots: { scratch: prepared.scratch, package: prepared.root },
        env: prepared.env,
        packageDirs: prepared.packageDirs,
        hostPath: prepared.hostPath,
        os: prepared.os,
        platform: request.platform,
        runner,
        ...(request.runDeadlineMs === undefined ? {} : { runDeadlineMs: request.runDeadlineMs }),
      },
      (line) => process.stderr.write(`${line}\n`),
    );
  } finally {
    await runner.close();
  }
}

async function runCommandForm(argv: string[], request: TestRequest, prepared: Prepared): Promise<Outcome> {
  const [prog, ...args] = argv;
  try {
    const run = await performRun(
      {
        prog: prog ?? "",
        args,
        packageDirs: prepared.packageDirs,
        hostPath: prepared.hostPath,
        os: prepared.os,
        env: prepared.env,
        cwd: prepared.scratch,
      },
      {
        forwardSignals: true,
        ...(request.echo ? { echo: { stdout: process.stdout, stderr: process.stderr } } : {}),
      },
    );
    if (run.exit_code === 0) return { status: "passed", message: null, assertion: null, run };
    return { status: "failed", message: `exit ${run.exit_code}`, assertion: null, run };
  } catch (error) {
    if (!isPkgError(error)) throw error;
    return { status: statusOfExitCode(error.exitCode), message: error.message, assertion: null, run: null };
  }
}

async function record(request: TestRequest, report: TestReport, version: string): Promise<void> {
  const junit = request.junit;
  if (junit === undefined) return;
  const suite = junit.suite ?? defaultSuiteName(version, platformSlug(request.platform), request.image);
  await addTestCaseToFile(
    junit.file,
    { name: suite, ...(junit.properties === undefined ? {} : { properties: junit.properties }) },
    junitCaseOf(report, suite),
  );
}

/** The tag an identifier names, as its source reads it (undefined for a digest reference). */
function tagOf(identifier: string, source: PackageSource): string | undefined {
  const reference =
    source.kind === "layout" ? parseRepositoryReference(identifier) : parseReference(identifier);
  return reference.tag;
}
