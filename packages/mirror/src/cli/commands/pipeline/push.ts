import { Command } from "@commander-js/extra-typings";
import { ExitCode, listenForInterrupt, PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { readPlanDocument } from "../../../pipeline/documents/read-plan.js";
import { planLegs } from "../../../pipeline/plan/legs.js";
import { describePushOutcome } from "../../../pipeline/push-step/describe.js";
import { pushStep } from "../../../pipeline/push-step/push-step.js";
import { runSignerFor, throwIfSigningFailed } from "../../run-signer.js";
import { repoRootOption } from "../../shared-options.js";
import { loadRunnableSpec, openSpecRepository, openSpecTarget } from "../../spec-target.js";

export function pipelinePushCommand() {
  return new Command("push")
    .description(
      "Decide every (version, platform) from the prepared bundles and the test legs' JUnit files, push the greens oldest first, write run-summary.json, and announce the tags written.",
    )
    .option("--spec <file>", "the spec file", "mirror.yml")
    .requiredOption("--bundles-dir <dir>", "where pipeline prepare wrote bundles and prepared-<tag>.json")
    .requiredOption("--junit-dir <dir>", "where the test legs wrote junit-<tag>-<slug>-<container>.xml")
    .requiredOption("--write-summary <file>", "run-summary.json to write")
    .option(
      "--plan <file>",
      "the plan.json: a planned version prepare never reported is red (missing_bundle), not silently absent",
    )
    .option("--layout <dir>", "publish into an OCI image layout under DIR instead of the spec's registry")
    .addOption(repoRootOption())
    .option("--format <format>", "output: text or json (the run summary)", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
A platform is green only when its bundle arrived as prepare built it and every test leg gating it
(the leg of its key, or of its key without +libc; +libc.musl only musl images, +libc.glibc glibc
images and native legs, a key without libc every container) wrote a JUnit file that lists every
declared test with no failure or error. Reasons for red: missing_bundle, missing_junit,
test_failed, no_test_leg, refused, push_error. A version with a red platform gets its primary tag
only; a version made whole gets its exact and rolling tags over all its platforms. One announce
per run carries every tag written (run-summary.json says announce: interrupted while it runs).
Python sources (pylock, pypi): every layer prepare listed is checked; each wheel's layer is first
registered standalone at <wheel_scope>/<index host>/<package>:<wheel sha256> in the target's
registry (skipped when that tag is there, once per run; a failure only warns), then the app's
layers are pushed with a mount from there; layer_reuse counts mounted, uploaded and verified.
Exit codes: 0 all green; 1 something red or the announce failed (after the summary is written);
64 usage; 65 bad spec, plan or manifest; 69/75/80 registry failures before anything was decided;
130/143 stopped by SIGINT/SIGTERM (the version being pushed is finished).`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const { spec } = await loadRunnableSpec(options.spec, options.repoRoot, log);
      const env = process.env;
      const plan = options.plan === undefined ? undefined : await readPlanDocument(options.plan, log);
      const signer = await runSignerFor(spec.sign, env, log);
      const http = createHttpClient({ env, userAgent: "pkg-mirror" });
      const interruption = listenForInterrupt(log, "finishing the version being pushed; no other starts");
      try {
        const summary = await pushStep({
          spec,
          bundlesDir: options.bundlesDir,
          junitDir: options.junitDir,
          summaryPath: options.writeSummary,
          legs: planLegs(spec),
          ...(plan === undefined ? {} : { plan }),
          target: openSpecTarget(spec, { layout: options.layout, env, publishing: true }),
          openRepository: (repository) =>
            openSpecRepository(spec, repository, { layout: options.layout, env, publishing: true }),
          env,
          http,
          log,
          signal: interruption.signal,
          ...(signer === undefined ? {} : { signer }),
        });
        if (options.format === "json") printJson(summary);
        else process.stdout.write(`${describePushOutcome(summary)}\n`);
        if (interruption.exitCode !== undefined)
          throw new PkgError(
            interruption.exitCode,
            `push stopped; ${options.writeSummary} says what was pushed`,
          );
        if (summary.any_red) throw new PkgError(ExitCode.Failed, redLine(summary));
        throwIfSigningFailed(signer);
      } finally {
        interruption.dispose();
        await http.close();
      }
    });
}

function redLine(summary: Awaited<ReturnType<typeof pushStep>>): string {
  const red = summary.versions.filter((v) => v.status === "failed" || v.status === "partial");
  const parts = red.map(
    (v) =>
      `${v.version} ${v.status} (${v.platforms_failed.map((f) => `${f.platform}: ${f.reason}`).join(", ")})`,
  );
  if (summary.announce?.status === "failed") parts.push(`announce failed: ${summary.announce.error ?? ""}`);
  return `red run: ${parts.join("; ")}`;
}
