import { spawn } from "node:child_process";
import { mkdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  childEnvironment,
  ExitCode,
  isInside,
  type Logger,
  oneLine,
  PkgError,
  usageError,
} from "@pkg/common";
import { addTestCaseToFile, readJUnitFile } from "@pkg/package/junit";
import { preparedManifestFileName } from "../documents/artifacts.js";
import type { PlanContainer, PlanDocument, PlanLeg } from "../documents/plan-document.js";
import type { PreparedVersion } from "../documents/prepared-version.js";
import { JOB_URL_PROPERTY, PLATFORM_PROPERTY } from "../gating/junit-verdict.js";
import { parsePreparedVersion } from "../push-step/read-prepared.js";
import { type ContainerLegCommands, renderContainerLeg, renderInvocation } from "./container-commands.js";
import { type EntryWork, findLeg, legWork, selectContainers, type VersionWork } from "./leg-work.js";
import { packageTestInvocation } from "./package-test-args.js";
import { containerArch, PKG_CONTAINER_CLI_TAG, staticPkgTriple } from "./pkg-release.js";
import { pkgTool, runTool, type ToolCommand } from "./spawn-tool.js";

export interface TestLegOptions {
  plan: PlanDocument;
  /** The leg's platform key (any spelling). */
  leg: string;
  /** Only this container of the leg; default every one. */
  container?: string;
  /** Only these plan versions; default every one the leg covers. */
  versions?: string[];
  /** Absolute directories: bundles and their metadata (prepare's output), JUnit files (written). */
  bundlesDir: string;
  junitDir: string;
  /** Absolute: a test's `script` resolves from here. */
  repoRoot: string;
  /** Container legs: the directory mounted into the container at the same path (holds the three above). */
  workspace: string;
  /** Container legs: the static pkg binary (default: downloaded under the temp directory). */
  staticPkg?: string;
  /** Container legs: the CA bundle mounted read-only. */
  caBundle?: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Print the commands on `print` instead of running them. */
  dryRun: boolean;
  print: (line: string) => void;
  signal?: AbortSignal;
}

export interface TestLegFailure {
  tag: string;
  platform: string;
  container: string;
  test: string;
}

export interface TestLegResult {
  /** Test invocations made (or printed), missing bundles included. */
  tests: number;
  failed: TestLegFailure[];
  /** JUnit files written, in the order written (names in the JUnit directory). */
  junitFiles: string[];
}

/**
 * A test leg of the plan: for each selected container and each version the leg covers, every
 * declared test of every entry the container gates runs once through `pkg package test`, writing
 * its case into one JUnit file per (version, leg slug, container), started afresh. A failing
 * version never stops the next one; a missing bundle gives failing cases saying so. Native
 * containers run `pkg` directly; image containers through docker (69 when docker is not on PATH).
 */
export async function runTestLeg(options: TestLegOptions): Promise<TestLegResult> {
  const { plan, log } = options;
  const { legKey, leg } = findLeg(plan, options.leg);
  const containers = selectContainers(legKey, leg, options.container);
  const work = legWork(plan, leg, containers, options.versions);
  const result: TestLegResult = { tests: 0, failed: [], junitFiles: [] };
  if (work.length === 0) {
    log.info(`leg ${legKey}: no version of the plan has a platform this leg tests; nothing to run`);
    return result;
  }
  const imaged = containers.filter((c) => c.image !== undefined);
  if (imaged.length > 0) await checkContainerSetting(options, legKey, imaged);
  if (!options.dryRun) await mkdir(options.junitDir, { recursive: true });

  for (const container of containers) {
    const mine = work.filter((w) => w.container === container);
    if (mine.length === 0) continue;
    const runner = await startContainer(options, legKey, leg, container);
    for (const version of mine) {
      if (options.signal?.aborted)
        throw new PkgError(ExitCode.Interrupted, "stopped before every version was tested");
      await runVersion(options, leg, version, runner, result);
    }
  }
  return result;
}

/** How a container's tests are started: `pkg` itself, or `docker run ... pkg`; `broken` when its prelude failed. */
interface ContainerRunner {
  tool: ToolCommand;
  /** The image (PKG_IMAGE) of an image container. */
  image?: string;
  /** Why no test can run in this container (its prelude failed). */
  broken?: string;
}

async function startContainer(
  options: TestLegOptions,
  legKey: string,
  leg: PlanLeg,
  container: PlanContainer,
): Promise<ContainerRunner> {
  const label = `leg ${legKey} container ${container.id}`;
  if (container.image === undefined) {
    const tool = pkgTool(options.env);
    if (options.dryRun) options.print(`# ${label}: pkg runs natively`);
    return { tool };
  }
  const commands = renderContainerLeg({
    legKey,
    leg,
    container,
    workspace: options.workspace,
    staticPkg: options.staticPkg ?? defaultStaticPkg(leg, container),
    ...(options.caBundle === undefined ? {} : { caBundle: options.caBundle }),
  });
  const [docker, ...run] = commands.run;
  const tool = { command: docker ?? "docker", args: run };
  const prelude = preludeScript(commands);
  if (options.dryRun) {
    options.print(`# ${label}: once per leg`);
    for (const line of prelude.split("\n")) options.print(line);
    return { tool, image: container.image };
  }
  options.log.info(`${label}: preparing the container (arch check, static pkg, image pull, setup)`);
  const prepared = await runTool({ command: "sh", args: [] }, ["-c", prelude], { env: options.env });
  if (prepared.code === 0) return { tool, image: container.image };
  const why = lastLine(prepared.stderrTail) ?? `the leg's preparation exited ${prepared.code}`;
  options.log.warn(`${label}: ${why}`);
  return { tool, image: container.image, broken: `the container could not be prepared: ${why}` };
}

function preludeScript(commands: ContainerLegCommands): string {
  return ["set -eu", ...commands.prelude].join("\n");
}

/** Where the static pkg of a container is kept when not given: one per release and triple. */
function defaultStaticPkg(leg: PlanLeg, container: PlanContainer): string {
  const triple = staticPkgTriple(containerArch(leg.container_platform), container.libc ?? "glibc");
  return join(tmpdir(), `pkg-${PKG_CONTAINER_CLI_TAG}-${triple}`, "pkg");
}

async function runVersion(
  options: TestLegOptions,
  leg: PlanLeg,
  version: VersionWork,
  runner: ContainerRunner,
  result: TestLegResult,
): Promise<void> {
  const junit = join(options.junitDir, version.junitFile);
  if (!options.dryRun) await rm(junit, { force: true });
  result.junitFiles.push(version.junitFile);
  const before = result.failed.length;
  let tests = 0;
  // one read of prepare's manifest for every entry of the version
  const prepared = await readPrepared(options.bundlesDir, version.tag);
  for (const entry of version.entries) {
    const properties = [
      { name: PLATFORM_PROPERTY, value: entry.platform },
      ...(options.env.PKG_MIRROR_JOB_URL?.trim()
        ? [{ name: JOB_URL_PROPERTY, value: options.env.PKG_MIRROR_JOB_URL.trim() }]
        : []),
    ];
    const files = entryFiles(entry, prepared);
    const missing =
      runner.broken ??
      (options.dryRun ? undefined : await missingBundle(options.bundlesDir, files, entry, prepared));
    for (const test of entry.tests) {
      tests++;
      result.tests++;
      const failure = {
        tag: version.tag,
        platform: entry.platform,
        container: version.container.id,
        test: test.name,
      };
      if (missing !== undefined) {
        await recordCase(junit, entry, properties, test.name, {
          failure: { type: "NotRun", message: missing },
        });
        result.failed.push(failure);
        continue;
      }
      const invocation = packageTestInvocation({
        bundles: files.map((file) => join(options.bundlesDir, file)),
        metadata: join(options.bundlesDir, entry.metadata),
        platform: entry.platform,
        pkgVersion: version.pkgVersion,
        ...(runner.image === undefined ? {} : { image: runner.image }),
        junit,
        suite: entry.suite,
        properties,
        test,
        shell: version.container.shell,
        prefix: leg.prefix,
        repoRoot: options.repoRoot,
      });
      if (options.dryRun) {
        options.print(
          renderInvocation([runner.tool.command, ...runner.tool.args, ...invocation.args], invocation.stdin),
        );
        continue;
      }
      if (options.signal?.aborted) throw new PkgError(ExitCode.Interrupted, "stopped before every test ran");
      const run = await runTool(runner.tool, invocation.args, {
        env: options.env,
        ...(invocation.stdin === undefined ? {} : { stdin: invocation.stdin }),
      });
      if (run.code === 0) continue;
      result.failed.push(failure);
      await ensureCase(junit, entry, properties, test.name, run.code, run.stderrTail);
    }
  }
  if (!options.dryRun) {
    const failed = result.failed.length - before;
    const line = `${version.tag} on ${entry0(version)} (${version.container.id}): ${tests} test(s), ${failed === 0 ? "all passed" : `${failed} failed`} -> ${version.junitFile}`;
    if (failed === 0) options.log.info(line);
    else options.log.warn(line);
  }
}

const entry0 = (version: VersionWork) => version.entries.map((e) => e.platform).join(", ");

/** What prepare's manifest says of a version, when it wrote a readable one (a failed prepare may
 *  not have: its entries' cases then say their bundle is missing). */
async function readPrepared(bundlesDir: string, tag: string): Promise<PreparedVersion | undefined> {
  const file = join(bundlesDir, preparedManifestFileName(tag));
  try {
    return parsePreparedVersion(await readFile(file, "utf8"), file);
  } catch {
    return undefined;
  }
}

/** The files an entry's test installs: an environment package's layers as prepare listed them,
 *  else the one bundle; then the metadata. */
function entryFiles(entry: EntryWork, prepared: PreparedVersion | undefined): string[] {
  const layers = prepared?.bundles?.find((b) => b.platform === entry.platform)?.layers;
  return layers === undefined ? [entry.bundle] : layers.map((layer) => layer.file);
}

/** Why an entry's files are not there (what prepare's manifest says about it, when it says anything), or undefined. */
async function missingBundle(
  bundlesDir: string,
  files: readonly string[],
  entry: EntryWork,
  prepared: PreparedVersion | undefined,
): Promise<string | undefined> {
  const wanted = [...files, entry.metadata];
  const present = await Promise.all(
    wanted.map((name) =>
      stat(join(bundlesDir, name)).then(
        (s) => s.isFile(),
        () => false,
      ),
    ),
  );
  if (present.every(Boolean)) return undefined;
  const absent = wanted.filter((_, i) => !present[i]).join(" and ");
  const failed = prepared?.failed?.find((f) => f.platform === entry.platform);
  return failed === undefined
    ? `bundle missing: ${absent} not in ${bundlesDir}`
    : `bundle missing: prepare failed for ${entry.platform}: ${oneLine(failed.message)}`;
}

async function recordCase(
  junit: string,
  entry: EntryWork,
  properties: Array<{ name: string; value: string }>,
  name: string,
  outcome: { failure: { type: string; message: string } } | { error: { type: string; message: string } },
): Promise<void> {
  await addTestCaseToFile(
    junit,
    { name: entry.suite, properties },
    { name, classname: entry.suite, time: 0, ...outcome },
  );
}

/** A `pkg package test` that failed before writing its case (usage, a crash): the case says so. */
async function ensureCase(
  junit: string,
  entry: EntryWork,
  properties: Array<{ name: string; value: string }>,
  name: string,
  code: number,
  stderrTail: string,
): Promise<void> {
  const report = await readJUnitFile(junit).catch(() => undefined);
  const suite = report?.suites.find((s) => s.name === entry.suite);
  if (suite?.cases.some((c) => c.name === name)) return;
  const why = lastLine(stderrTail);
  const status = code === -1 ? "ended by a signal" : `exited ${code}`;
  await recordCase(junit, entry, properties, name, {
    error: { type: "NotRun", message: `pkg package test ${status}${why === undefined ? "" : `: ${why}`}` },
  });
}

function lastLine(text: string): string | undefined {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .at(-1);
}

/** Container legs: docker on PATH, and everything the container reads under the mounted workspace. */
async function checkContainerSetting(
  options: TestLegOptions,
  legKey: string,
  imaged: readonly PlanContainer[],
) {
  for (const [what, dir] of [
    ["--bundles-dir", options.bundlesDir],
    ["--junit-dir", options.junitDir],
    ["--repo-root", options.repoRoot],
  ] as const) {
    if (!isInside(options.workspace, dir)) {
      throw usageError(
        `${what} ${dir} is outside the workspace ${options.workspace} the containers of leg ${legKey} mount (set --workspace)`,
      );
    }
  }
  if (options.dryRun) return;
  const docker = await probeDocker(options.env);
  if (docker !== undefined) {
    const ids = imaged.map((c) => c.id).join(", ");
    throw new PkgError(
      ExitCode.Unavailable,
      `leg ${legKey} runs its tests in containers (${ids}) through docker, and ${docker}`,
    );
  }
}

/** Why docker cannot run containers here (not on PATH, its engine unreachable), or undefined when it can. */
function probeDocker(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn("docker", ["version", "--format", "{{.Server.Version}}"], {
      env: childEnvironment(env),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-TAIL);
    });
    child.once("error", (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === "ENOENT" ? "docker is not on PATH" : `docker cannot be started: ${error.message}`,
      ),
    );
    child.once("close", (code) =>
      resolve(
        code === 0 ? undefined : `docker cannot reach its engine: ${lastLine(stderr) ?? `exit ${code}`}`,
      ),
    );
  });
}

const TAIL = 2048;
