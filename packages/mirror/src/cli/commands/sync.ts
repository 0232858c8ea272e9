import { Command } from "@commander-js/extra-typings";
import { ExitCode, listenForInterrupt, PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { runSync } from "../../pipeline/sync.js";
import { formatSyncReport, interruptionLine } from "../../pipeline/sync-report.js";
import { runSignerFor, throwIfSigningFailed } from "../run-signer.js";
import { repoRootOption, verifyPublishedOption } from "../shared-options.js";
import { loadRunnableSpec, openSpecRepository, openSpecTarget } from "../spec-target.js";

export function syncCommand() {
  return new Command("sync")
    .description("Download, verify, unpack, bundle and push every (version, platform) pair the target lacks.")
    .argument("[spec]", "the spec file", "mirror.yml")
    .option("--work-dir <dir>", "where downloads and bundles are kept until pushed", "./.pkg-mirror")
    .option("--dry-run", "plan and print what would be published, without downloading or pushing")
    .option("--version <version>", "sync this version only")
    .option("--latest", "sync the newest release inside the window only (never a pre-release)")
    .option("--fail-fast", "stop at the first failed pair (default: the other pairs go on)")
    .addOption(verifyPublishedOption())
    .option("--layout <dir>", "publish into an OCI image layout under DIR instead of the spec's registry")
    .addOption(repoRootOption())
    .option("--format <format>", "output: text (a table) or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
Versions are pushed one at a time, oldest first; rolling tags move only when every platform of
the version is green, and then hold the platforms earlier runs published too. A version's exact
tag (1.2.3) is written last: a version with a primary tag but no exact tag, once whole, has its
tags completed by the next run, uploading nothing. A failed pair publishes nothing for itself and
makes the run exit 1. SIGINT/SIGTERM stop the run cleanly: nothing new starts, the version being
tagged is finished, partial files are removed, and it exits 130/143 with one line saying what was
published and what was not (a second signal stops at once).
Python sources (pylock, pypi) become environment packages as pipeline prepare builds them (a pypi
version's lock derived with uv into <work-dir>/locks), one layer per wheel; each wheel's layer is
registered standalone at <wheel_scope>/<index host>/<package>:<sha256> and mounted from there.`,
    )
    .action(async (specPath, options) => {
      const log = stderrLogger();
      const { loaded, spec } = await loadRunnableSpec(specPath, options.repoRoot, log);
      const env = process.env;
      const target = openSpecTarget(spec, { layout: options.layout, env, publishing: true });
      const signer = options.dryRun === true ? undefined : await runSignerFor(spec.sign, env, log);
      const http = createHttpClient({ env, userAgent: "pkg-mirror" });
      const interruption = listenForInterrupt(
        log,
        "finishing the version being tagged; nothing new starts and partial files are removed",
      );
      try {
        const report = await runSync(loaded, {
          workDir: options.workDir,
          dryRun: options.dryRun === true,
          ...(options.version === undefined ? {} : { version: options.version }),
          latest: options.latest === true,
          failFast: options.failFast === true,
          verifyPublished: options.verifyPublished === true,
          target,
          openRepository: (repository) =>
            openSpecRepository(spec, repository, { layout: options.layout, env, publishing: true }),
          env,
          log,
          http,
          signal: interruption.signal,
          ...(signer === undefined ? {} : { signer }),
        });
        if (options.format === "json") printJson(report);
        else process.stdout.write(`${formatSyncReport(report)}\n`);
        if (interruption.exitCode !== undefined) {
          throw new PkgError(interruption.exitCode, interruptionLine(report, options.workDir));
        }
        const { failed } = report.counts;
        if (failed > 0) {
          throw new PkgError(
            ExitCode.Failed,
            `${failed} (version, platform) pair${failed === 1 ? "" : "s"} failed`,
          );
        }
        throwIfSigningFailed(signer);
      } finally {
        interruption.dispose();
        await http.close();
      }
    });
}
