import { resolve } from "node:path";
import { Command } from "@commander-js/extra-typings";
import { ExitCode, listenForInterrupt, PkgError, stderrLogger } from "@pkg/common";
import { readPlanDocument } from "../../../pipeline/documents/read-plan.js";
import { DEFAULT_CA_BUNDLE } from "../../../pipeline/test-leg/container-commands.js";
import { PKG_CONTAINER_CLI_TAG } from "../../../pipeline/test-leg/pkg-release.js";
import { runTestLeg } from "../../../pipeline/test-leg/run-leg.js";
import { findRepoRoot } from "../../../spec/loader.js";

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function pipelineTestCommand() {
  return new Command("test")
    .description(
      "Run one test leg of the plan: every declared test of every version the leg covers, through pkg package test, one JUnit file per (version, platform slug, container).",
    )
    .requiredOption("--plan <file>", "the plan.json of pipeline plan")
    .requiredOption(
      "--leg <platform>",
      "the leg: a platform key of the plan's legs (linux/amd64, linux/amd64+libc.musl)",
    )
    .option(
      "--container <id>",
      "only this container of the leg (default: every one; native legs have one, native)",
    )
    .option("--bundles-dir <dir>", "where pipeline prepare wrote the bundles and their metadata", "./bundles")
    .option("--junit-dir <dir>", "where the JUnit files are written", "./junit")
    .option(
      "--version <tag>",
      "only this plan version (repeatable; default: every version with a platform the leg tests)",
      collect,
    )
    .option(
      "--repo-root <dir>",
      "where a test's script: resolves from (default: the nearest directory at or above the current one holding .git, else the current one)",
    )
    .option(
      "--workspace <dir>",
      "container legs: the directory mounted into each container at the same path; the bundles, JUnit and repository directories must be inside it (default: the repository root)",
    )
    .option(
      "--static-pkg <file>",
      `container legs: the static, libc-matched pkg mounted as /usr/local/bin/pkg (default: downloaded once, release ${PKG_CONTAINER_CLI_TAG}, under the temp directory)`,
    )
    .option("--ca-bundle <file>", "container legs: the CA bundle mounted read-only", DEFAULT_CA_BUNDLE)
    .option("--dry-run", "print the commands the leg would run (container preparation included) and run none")
    .addHelpText(
      "after",
      `
Each (version, entry, test) is one pkg package test --platform <full key> --junit FILE call; a
command runs as <prefix...> <shell> -c <command>, a script from the repository root, a
script_inline on stdin. Native containers run pkg directly (PKG_BIN overrides which pkg: an
executable); image containers run it inside docker run --platform <key without +libc> of the
image (or its setup image), with the static pkg and the CA bundle mounted. The suite carries
ci.job.url from PKG_MIRROR_JOB_URL when set, and pkg.platform (the entry it tested). A failing
version does not stop the next: every version gets its JUnit file; a missing bundle writes
failing cases saying so. metadata-drift entries are never tested.
Exit codes: 0 every test passed (or nothing to test); 1 some test failed or a bundle was
missing; 64 usage; 65 a plan that is not a plan.json, or a leg, container or version it does
not have; 69 a container leg without docker on PATH, or pkg cannot be started; 82 a container
platform without a static pkg release; 130/143 stopped by SIGINT/SIGTERM.`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const plan = await readPlanDocument(options.plan, log);
      const repoRoot = resolve(options.repoRoot ?? findRepoRoot(process.cwd()));
      const interruption = listenForInterrupt(log, "the running test finishes; no further test starts");
      try {
        const result = await runTestLeg({
          plan,
          leg: options.leg,
          ...(options.container === undefined ? {} : { container: options.container }),
          ...(options.version === undefined ? {} : { versions: options.version }),
          bundlesDir: resolve(options.bundlesDir),
          junitDir: resolve(options.junitDir),
          repoRoot,
          workspace: resolve(options.workspace ?? repoRoot),
          ...(options.staticPkg === undefined ? {} : { staticPkg: resolve(options.staticPkg) }),
          caBundle: resolve(options.caBundle),
          env: process.env,
          log,
          dryRun: options.dryRun === true,
          print: (line) => process.stdout.write(`${line}\n`),
          signal: interruption.signal,
        });
        if (interruption.exitCode !== undefined) {
          throw new PkgError(interruption.exitCode, "stopped before every test ran");
        }
        if (result.failed.length > 0) {
          const versions = [...new Set(result.failed.map((f) => f.tag))];
          throw new PkgError(
            ExitCode.Failed,
            `leg ${options.leg}: ${result.failed.length} of ${result.tests} test(s) failed (${versions.join(", ")}); the JUnit files say which`,
          );
        }
      } catch (error) {
        if (
          interruption.exitCode !== undefined &&
          !(error instanceof PkgError && error.exitCode === interruption.exitCode)
        )
          throw new PkgError(interruption.exitCode, "stopped before every test ran");
        throw error;
      } finally {
        interruption.dispose();
      }
    });
}
