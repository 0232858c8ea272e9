import { writeFile } from "node:fs/promises";
import { Command } from "@commander-js/extra-typings";
import { ExitCode, type Logger, PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { readOnly } from "@pkg/oci";
import { type CascadeCheckReport, checkCascade } from "../../cascade/check.js";
import { checkSummary, repairLines, rowLines } from "../../cascade/format.js";
import { leafVersionTag } from "../../cascade/leaves.js";
import { repairCascade } from "../../cascade/repair.js";
import { layoutOptionHelp, openReference } from "../target.js";

const STATUSES = `
Leaf versions: a version's primary tags (X.Y.Z_<build>) hold its own manifests; a version without
any (build_timestamp: none) has its bare tag X.Y.Z (or X.Y.Z-pre) as its leaf, and X.Y or X only in
a repository without build tags where no longer release extends it. Leaf tags are never rewritten.
Every other tag of the version grammar is a rolling tag: X.Y.Z (the version and longer releases it
prefixes), X.Y, X, latest, a variant's name and <variant>-X.Y...; per platform it should hold the
manifest of the newest leaf version of its series carrying that platform (pre-releases: their own
exact tag only), as a cascading push of every version in any order would leave it. The tags of
a named variant without any leaf version (a hand-set "edge") are not judged.
Statuses: ok (exactly that, and no other package platform), missing (the tag should exist and does
not), stale (a platform absent or pointing at another manifest: an older version's, a superseded
build's; or the tag holds a single manifest), duplicate (a platform listed more than once), orphan
(a platform no version of the series carries, or no version at all behind the tag); a tag with
several is reported as the first of stale, duplicate, orphan.
Unrepairable: would-empty-index (no version behind the tag: delete it or publish its series),
child-manifest-missing (a leaf names a manifest the repository lacks: re-publish that version),
not-an-index (the tag holds a single manifest, never replaced).
--exclude-version V (repeatable; X.Y.Z, <variant>-X.Y.Z or a build tag of it) leaves version V out
of the fold: a version that is not whole (a platform it should carry failed or was never
published) gets no rolling tag, so every rolling tag is judged as if V did not exist (one holding
V's manifests is stale and repaired without them). V's own build tags are left alone. This tool
cannot tell which versions are whole; pkg-mirror package pipeline cascade works it out from its
spec and passes the incomplete ones this way.`;

const collectVersion = (value: string, previous: string[]) => [...previous, leafVersionTag(value)];
const excludeHelp = "leave version V out of the fold: it is not whole (repeatable; see below)";

/** Warns of each named version a repository holds no leaf of (nothing was held out for it). */
function warnUnknown(report: CascadeCheckReport, named: ReadonlySet<string>, log: Logger): void {
  const held = new Set(report.held_out ?? []);
  for (const version of named)
    if (!held.has(version))
      log.warn(
        `${report.repository}: --exclude-version ${version}: no such version; nothing held out for it`,
      );
}

export function cascadeCommand() {
  const check = new Command("check")
    .description(
      "Audit every rolling tag of one or more repositories against the fold of their leaf versions; reads only.",
    )
    .argument("<repositories...>", "REGISTRY/REPOSITORY (with --layout, REPOSITORY)")
    .option("--layout <dir>", layoutOptionHelp)
    .option("--exclude-version <version>", excludeHelp, collectVersion, [] as string[])
    .option(
      "--format <format>",
      "output: text or json (an array, one report per repository)",
      parseFormat,
      "text" as const,
    )
    .addHelpText(
      "after",
      `${STATUSES}
Exit codes: 0 clean; 65 findings (or a repository that does not exist); 64 usage; 69/75/80
registry failures.`,
    )
    .action(async (refs, options) => {
      const log = stderrLogger();
      const incomplete = new Set(options.excludeVersion);
      const reports = [];
      for (const ref of refs) {
        const { target, reference } = openReference(ref, options.layout);
        if (reference.tag !== undefined || reference.digest !== undefined)
          throw new PkgError(ExitCode.Usage, `${ref}: name a repository, without a tag or digest`);
        const { report } = await checkCascade(readOnly(target), { incomplete });
        warnUnknown(report, incomplete, log);
        reports.push(report);
      }
      if (options.format === "json") printJson(reports);
      else
        for (const report of reports) {
          process.stdout.write(`${checkSummary(report)}\n`);
          for (const line of rowLines(report.rows)) process.stdout.write(`${line}\n`);
        }
      const findings = reports.reduce((n, r) => n + r.findings, 0);
      if (findings > 0)
        throw new PkgError(
          ExitCode.Data,
          `${findings} rolling tag${findings === 1 ? "" : "s"} not as the fold expects`,
        );
    });

  const repair = new Command("repair")
    .description(
      "Rebuild each wrong rolling tag of a repository from the fold of its leaf versions: one write per tag, read back.",
    )
    .argument("<repository>", "REGISTRY/REPOSITORY (with --layout, REPOSITORY)")
    .option("--dry-run", "report what would be written; write nothing (no tag, no --announce-tags file)")
    .option(
      "--announce-tags <file>",
      "write the tags the repair moved to FILE, one per line (possibly none), for pkg package announce --tags-file",
    )
    .option("--layout <dir>", layoutOptionHelp)
    .option("--exclude-version <version>", excludeHelp, collectVersion, [] as string[])
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `${STATUSES}
A wrong tag's index is rebuilt: every package platform gets the fold's entry; entries without a
package platform and the index's annotations are kept (a missing tag takes its newest version's).
Outcomes: written (the tag read back as written), raced (another writer moved the tag between
the check's read and the write, so it was not written, or right after the write), refused
(unrepairable), failed (the write failed).
Exit codes: 0 nothing left; 65 findings remain (raced, refused, or any finding of a dry run);
1 a write failed; 64 usage; 69/75/80 registry failures before any write.`,
    )
    .action(async (ref, options) => {
      const log = stderrLogger({ quiet: options.format === "json" });
      const { target, reference } = openReference(ref, options.layout);
      if (reference.tag !== undefined || reference.digest !== undefined)
        throw new PkgError(ExitCode.Usage, `${ref}: name a repository, without a tag or digest`);
      const incomplete = new Set(options.excludeVersion);
      const report = await repairCascade(target, { dryRun: options.dryRun === true, incomplete, log });
      warnUnknown(report.check, incomplete, log);
      if (options.announceTags !== undefined && !report.dry_run) {
        await writeFile(options.announceTags, report.moved_tags.map((t) => `${t}\n`).join(""));
      }
      if (options.format === "json") printJson(report);
      else {
        process.stdout.write(`${checkSummary(report.check)}\n`);
        for (const line of rowLines(report.check.rows.filter((r) => r.status !== "ok")))
          process.stdout.write(`${line}\n`);
        for (const line of repairLines(report)) process.stdout.write(`${line}\n`);
      }
      if (report.failed) throw new PkgError(ExitCode.Failed, `${report.repository}: a repair write failed`);
      if (report.remaining > 0)
        throw new PkgError(
          ExitCode.Data,
          `${report.remaining} rolling tag${report.remaining === 1 ? "" : "s"} ${report.dry_run ? "to repair (dry run)" : "left wrong"}`,
        );
    });

  return new Command("cascade")
    .description("Check and repair the rolling tags (X.Y.Z, X.Y, X, latest, variant names) of repositories.")
    .addCommand(check)
    .addCommand(repair);
}
