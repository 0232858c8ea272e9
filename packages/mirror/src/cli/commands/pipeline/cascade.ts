import { Command } from "@commander-js/extra-typings";
import { ExitCode, PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { checkSummary, repairLines, rowLines } from "@pkg/package/cascade";
import { describeAnnounce } from "../../../pipeline/announce.js";
import { cascadeStep } from "../../../pipeline/cascade-step/cascade-step.js";
import { repoRootOption } from "../../shared-options.js";
import { loadRunnableSpec, openSpecTarget } from "../../spec-target.js";

export function pipelineCascadeCommand() {
  return new Command("cascade")
    .description(
      "Repair the rolling tags of the spec's target (pkg package cascade repair, in process) and announce the tags moved.",
    )
    .option("--spec <file>", "the spec file", "mirror.yml")
    .option("--dry-run", "report what would be repaired; write and announce nothing")
    .option("--layout <dir>", "repair an OCI image layout under DIR instead of the spec's registry")
    .option(
      "--out <dir>",
      "announce into this local index directory instead of the spec's index repository: for previews and demos (no credential)",
    )
    .addOption(repoRootOption())
    .option(
      "--format <format>",
      "output: text or json (the repair report and the announce)",
      parseFormat,
      "text" as const,
    )
    .addHelpText(
      "after",
      `
Every rolling tag (X.Y.Z, X.Y, X, latest, variant names) is checked against the fold of the
leaf versions (their build tags) and each wrong one rewritten once, read back: statuses ok,
missing, stale, duplicate, orphan and outcomes written, raced, refused, failed as pkg package
cascade repair --help describes them. The spec's version window is planned first (upstream
listed once, as pipeline plan does): a version of the window that is not whole (a wanted platform
not published, or not publishable) is left out of the fold, as with pkg package cascade repair
--exclude-version, so a partial version keeps its build tag only, as pipeline push left it; an
alias holding its manifests is re-pointed without them. Versions outside the window are judged
by what is published. A repair that moved tags updates the published summary
and, with an announce block, announces exactly those tags (PKG_ANNOUNCE_TOKEN missing: a
notice); a healthy run writes and announces nothing; a dry run never announces.
Exit codes: 0 nothing left to repair; 65 findings remain (unrepairable, raced, or any in a dry
run); 1 the repair failed to write or the announce failed (before 65); 64 usage, or a spec with
cascade: false; 69 the source or the registry unavailable while planning (nothing written);
69/75/80 registry failures while reading.`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const { loaded, spec } = await loadRunnableSpec(options.spec, options.repoRoot, log);
      const env = process.env;
      const http = createHttpClient({ env, userAgent: "pkg-mirror" });
      try {
        const { repair, announce } = await cascadeStep({
          loaded,
          spec,
          target: openSpecTarget(spec, { layout: options.layout, env }),
          dryRun: options.dryRun === true,
          env,
          http,
          log,
          ...(options.out === undefined ? {} : { out: options.out }),
        });
        if (options.format === "json") printJson({ ...repair, ...(announce ? { announce } : {}) });
        else {
          process.stdout.write(`${checkSummary(repair.check)}\n`);
          for (const line of rowLines(repair.check.rows.filter((r) => r.status !== "ok")))
            process.stdout.write(`${line}\n`);
          if (repair.planned.length > 0)
            for (const line of repairLines(repair)) process.stdout.write(`${line}\n`);
        }
        if (announce) {
          const line = describeAnnounce(announce, spec.announce);
          log.info(announce.status === "skipped_no_credential" ? `notice: ${line}` : line);
        }
        const failures = [
          ...(repair.failed ? ["the repair failed to write"] : []),
          ...(announce?.status === "failed" ? ["the announce failed"] : []),
        ];
        if (failures.length > 0)
          throw new PkgError(ExitCode.Failed, `${repair.repository}: ${failures.join("; ")}`);
        if (repair.remaining > 0)
          throw new PkgError(
            ExitCode.Data,
            `${repair.remaining} rolling tag${repair.remaining === 1 ? "" : "s"} ${repair.dry_run ? "to repair (dry run: nothing written)" : "left wrong"}`,
          );
      } finally {
        await http.close();
      }
    });
}
