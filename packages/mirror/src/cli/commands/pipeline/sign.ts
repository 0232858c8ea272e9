import { Command } from "@commander-js/extra-typings";
import { ExitCode, PkgError, parseFormat, printJson, stderrLogger, usageError } from "@pkg/common";
import { formatSignReport, signPublished } from "../../../pipeline/sign.js";
import { openSpecSigner } from "../../../publish/sign-resolve.js";
import { repoRootOption } from "../../shared-options.js";
import { loadRunnableSpec, openSpecTarget } from "../../spec-target.js";

export function pipelineSignCommand() {
  return new Command("sign")
    .description(
      "Sign every published version that has no signature yet (each tag's image index and platform manifests), with the spec's sign block; safe to re-run.",
    )
    .option("--spec <file>", "the spec file", "mirror.yml")
    .option("--dry-run", "list what would be signed; resolve no secret and sign nothing")
    .option("--layout <dir>", "sign in an OCI image layout under DIR instead of the spec's registry")
    .addOption(repoRootOption())
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
A subject with any signature (a signature referrer, a Sigstore bundle referrer, or cosign's
sha256-<hex>.sig tag) is skipped: presence decides, nothing is verified. Each subject is reported
as completed, skipped or failed (would_sign in a dry run).
Exit codes: 0 nothing failed; 1 a signature failed; 64 usage (no sign block); 65 bad spec;
69/75/80 registry or signing service; 78 a passphrase or identity token resolves to nothing;
82 a key-management-service key.`,
    )
    .action(async (options) => {
      const log = stderrLogger({ quiet: options.format === "json" });
      const { spec } = await loadRunnableSpec(options.spec, options.repoRoot, log);
      if (spec.sign === undefined)
        throw usageError(`${options.spec} has no sign block: nothing says how to sign`);
      const dryRun = options.dryRun === true;
      const signer = dryRun ? undefined : await openSpecSigner(spec.sign, process.env);
      const target = openSpecTarget(spec, { layout: options.layout, env: process.env });
      const report = await signPublished(target, signer, { log, dryRun });
      if (options.format === "json") printJson(report);
      else process.stdout.write(`${formatSignReport(report)}\n`);
      if (report.counts.failed > 0) {
        throw new PkgError(
          ExitCode.Failed,
          `${report.counts.failed} subject${report.counts.failed === 1 ? "" : "s"} failed to sign`,
        );
      }
    });
}
