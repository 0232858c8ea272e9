import { Command } from "@commander-js/extra-typings";
import { ExitCode, listenForInterrupt, PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { checkLabel, parseOwner } from "@pkg/package/announce";
import { describeAnnounce, runAnnounce } from "../../../pipeline/announce.js";
import { repoRootOption } from "../../shared-options.js";
import { loadRunnableSpec, openSpecTarget } from "../../spec-target.js";

const collectOwner = (value: string, previous: ReturnType<typeof parseOwner>[] | undefined) => [
  ...(previous ?? []),
  parseOwner(value),
];

export function pipelineAnnounceCommand() {
  return new Command("announce")
    .description(
      "The catch-up announce: every tag the target repository holds, added to the package's entry in the index the spec's announce block names. Additive: committed tags and their yank markers stay; reserved tags (__pkg.*, digest-shaped) are left out.",
    )
    .option("--spec <file>", "the spec file", "mirror.yml")
    .option(
      "--dry-run",
      "compute the change against the committed index entry and report updated or unchanged; nothing is pushed or opened",
    )
    .option(
      "--layout <dir>",
      "read the target repository from an OCI image layout under DIR instead of the spec's registry",
    )
    .option(
      "--out <dir>",
      "announce into this local index directory instead of the spec's index repository: for previews and demos (no credential)",
    )
    .option(
      "--label <name>",
      "for a package the index does not hold yet: the index's own name, its name's first segment (default: that of the index's packages)",
    )
    .option(
      "--owner <login:id>",
      "for a package the index does not hold yet: an owner (repeatable), GitHub login and numeric id",
      collectOwner,
    )
    .addOption(repoRootOption())
    .option("--format <format>", "output: text or json (the announce report)", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
Statuses (the report's status, run-summary.json's announce.status): announced (the request was
opened or updated; with --out, the directory written), nothing_to_announce (the index holds every
tag already), skipped_no_credential (a notice; the run stays green), failed (the error and its
detail), interrupted; with --dry-run, the status a real run would reach, dry_run: true and change:
updated or unchanged. Credentials: PKG_ANNOUNCE_TOKEN (transport api); transport git takes
PKG_ANNOUNCE_GIT_TOKEN, then PKG_AUTH_<HOST>_* or netrc, then the CI job's token on the index host.
Exit codes: 0 announced, nothing to announce, or skipped for want of a credential; 1 the announce
failed (a publisher not on the job-token allowlist, 77, and a capability the forge lacks, 82,
included: forge_publisher_not_allowlisted, forge_capability_unavailable); 64 usage, or a spec
without an announce block; 65 bad spec; 130/143 stopped by SIGINT/SIGTERM.`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const { spec } = await loadRunnableSpec(options.spec, options.repoRoot, log);
      if (spec.announce === undefined) {
        throw new PkgError(
          ExitCode.Usage,
          `${options.spec} has no announce block: nothing is announced (add announce: {package: NAMESPACE/PACKAGE})`,
        );
      }
      const label = options.label === undefined ? undefined : checkLabel(options.label);
      const env = process.env;
      const source = openSpecTarget(spec, { layout: options.layout, env });
      const http = createHttpClient({ env, userAgent: "pkg-mirror" });
      const interruption = listenForInterrupt(log, "the announce stops where it is");
      try {
        const outcome = await runAnnounce(spec, {
          tags: { kind: "every" },
          source,
          env,
          http,
          log,
          dryRun: options.dryRun === true,
          signal: interruption.signal,
          ...(options.out === undefined ? {} : { out: options.out }),
          ...(label === undefined ? {} : { label }),
          ...(options.owner === undefined ? {} : { owners: options.owner }),
        });
        if (outcome === undefined) throw new Error("runAnnounce ignored the announce block");
        if (options.format === "json") printJson(outcome);
        const line = describeAnnounce(outcome, spec.announce);
        if (outcome.status === "interrupted") {
          throw new PkgError(interruption.exitCode ?? ExitCode.Interrupted, line);
        }
        if (outcome.status === "failed") throw new PkgError(ExitCode.Failed, line);
        log.info(outcome.status === "skipped_no_credential" ? `notice: ${line}` : line);
      } finally {
        interruption.dispose();
        await http.close();
      }
    });
}
