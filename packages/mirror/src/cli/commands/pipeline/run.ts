import { Command } from "@commander-js/extra-typings";
import { ExitCode, listenForInterrupt, PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { describePushOutcome } from "../../../pipeline/push-step/describe.js";
import { runPipeline } from "../../../pipeline/run/run-pipeline.js";
import { runSignerFor, throwIfSigningFailed } from "../../run-signer.js";
import { repoRootOption } from "../../shared-options.js";
import { loadRunnableSpec, openSpecRepository, openSpecTarget } from "../../spec-target.js";

export function pipelineRunCommand() {
  return new Command("run")
    .description(
      "Run the whole CI pipeline on this machine (plan, prepare, the test legs this host can run, push), the way you debug a spec before pushing it to CI.",
    )
    .option("--spec <file>", "the spec file", "mirror.yml")
    .option(
      "--work-dir <dir>",
      "where plan.json, bundles/, junit/, run-summary.json and the builds in progress go",
      "./.pkg-mirror-pipeline",
    )
    .option("--layout <dir>", "publish into an OCI image layout under DIR instead of the spec's registry")
    .addOption(repoRootOption())
    .option("--format <format>", "output: text or json (the run summary)", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
Produces what the CI jobs would: plan.json, bundle-<tag>-<slug>.tar.zst with its metadata and
prepared-<tag>.json, junit-<tag>-<slug>-<container>.xml, run-summary.json. Runs the native test
legs of this host's platform; container legs and other platforms are listed as not run here and,
their JUnit never arriving, keep their platforms red (fail closed), as CI would if a leg never
reported. Announces when the spec says so (skipped without PKG_ANNOUNCE_TOKEN); never notifies.
Exit codes: 0 all green; 1 something red; 64 usage; 65 bad spec; 69 source or registry
unavailable; 130/143 stopped by SIGINT/SIGTERM.`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const { loaded, spec } = await loadRunnableSpec(options.spec, options.repoRoot, log);
      const env = process.env;
      const signer = await runSignerFor(spec.sign, env, log);
      const http = createHttpClient({ env, userAgent: "pkg-mirror" });
      const interruption = listenForInterrupt(log, "finishing the version being pushed; nothing new starts");
      try {
        const run = await runPipeline({
          loaded,
          spec,
          workDir: options.workDir,
          repoRoot: loaded.repoRoot,
          target: openSpecTarget(spec, { layout: options.layout, env, publishing: true }),
          openRepository: (repository) =>
            openSpecRepository(spec, repository, { layout: options.layout, env, publishing: true }),
          env,
          http,
          log,
          signal: interruption.signal,
          ...(signer === undefined ? {} : { signer }),
        });
        if (options.format === "json") printJson(run.summary);
        else {
          const notRun = run.legs.filter((l) => !l.runs);
          const lines = [
            describePushOutcome(run.summary),
            ...notRun.map((l) => `not run here: leg ${l.leg} (${l.container}): ${l.runs ? "" : l.why}`),
            `run summary: ${run.summaryPath}`,
          ];
          process.stdout.write(`${lines.join("\n")}\n`);
        }
        if (interruption.exitCode !== undefined)
          throw new PkgError(
            interruption.exitCode,
            `pipeline run stopped; ${run.summaryPath} says what was pushed`,
          );
        if (run.summary.any_red) throw new PkgError(ExitCode.Failed, "red run: see the run summary above");
        throwIfSigningFailed(signer);
      } finally {
        interruption.dispose();
        await http.close();
      }
    });
}
