import { dirname } from "node:path";
import { Command } from "@commander-js/extra-typings";
import { ExitCode, listenForInterrupt, PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import type { PlanVersion } from "../../../pipeline/documents/plan-document.js";
import { readPlanDocument } from "../../../pipeline/documents/read-plan.js";
import { isEnvSpec, prepareEnvVersions } from "../../../pipeline/prepare-step/prepare-env.js";
import { prepareVersions } from "../../../pipeline/prepare-step/prepare-versions.js";
import { standalonePlanVersion } from "../../../pipeline/prepare-step/standalone.js";
import { repoRootOption } from "../../shared-options.js";
import { loadRunnableSpec, openSpecTarget } from "../../spec-target.js";

export function pipelinePrepareCommand() {
  return new Command("prepare")
    .description(
      "Build one version's bundles and metadata, per platform, from the plan's resolved assets, under the names the test and push jobs find them by.",
    )
    .option("--spec <file>", "the spec file", "mirror.yml")
    .option(
      "--plan <file>",
      "the plan.json of pipeline plan (default: plan again here, for this version only)",
    )
    .requiredOption(
      "--version <tag>",
      "the plan entry's version: the tag to publish (1.2.3_20260101120000, slim-1.2.3_...)",
    )
    .option(
      "--work-dir <dir>",
      "downloads and bundles in progress; a finished bundle there is reused",
      "./.pkg-mirror",
    )
    .option("--bundles-dir <dir>", "where the artefacts are written", "./bundles")
    .addOption(repoRootOption())
    .option(
      "--format <format>",
      "output: text or json (the prepared-<tag>.json document)",
      parseFormat,
      "text" as const,
    )
    .addHelpText(
      "after",
      `
Writes, in --bundles-dir: bundle-<tag>-<slug>.tar.zst and bundle-<tag>-<slug>-metadata.json per
platform (slug: linux-amd64, linux-amd64-musl, ...), then prepared-<tag>.json listing them and the
platforms that failed; pipeline push reads it. With --plan, upstream is not listed again.
Python sources (pylock, pypi): per wheels key, the lock's selected wheels (the committed lock, or
the entry's pylock relative to --plan's directory) downloaded, checked against the lock's hashes,
repacked as bundle-<tag>-<slug>-layer<N>.tar.zst (one per wheel, listed in the manifest's
"layers"), with the composed metadata; python.interpreter_package's tag is resolved to its digest.
Exit codes: 0 every platform built; 1 some platform failed (the manifest says which); 64 usage;
65 the version is not in the plan, or is a metadata-drift entry (pipeline patch fixes those);
69 upstream unavailable; 130/143 stopped by SIGINT/SIGTERM (no manifest written).`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const { loaded, spec } = await loadRunnableSpec(options.spec, options.repoRoot, log);
      const env = process.env;
      const http = createHttpClient({ env, userAgent: "pkg-mirror" });
      const interruption = listenForInterrupt(
        log,
        "running downloads and bundles are cut off; no manifest is written",
      );
      try {
        const entry: PlanVersion =
          options.plan === undefined
            ? await standalonePlanVersion(loaded, options.version, {
                env,
                log,
                http,
                target: openSpecTarget(spec, { env }),
              })
            : planEntry((await readPlanDocument(options.plan, log)).versions, options.version, options.plan);
        const step = {
          spec,
          specDir: loaded.specDir,
          workDir: options.workDir,
          bundlesDir: options.bundlesDir,
          targetName: `${spec.target.registry}/${spec.target.repository}`,
          http,
          log,
          signal: interruption.signal,
        };
        const [prepared] = isEnvSpec(spec)
          ? await prepareEnvVersions([entry], {
              ...step,
              repoRoot: loaded.repoRoot,
              env,
              ...(options.plan === undefined ? {} : { planDir: dirname(options.plan) }),
            })
          : await prepareVersions([entry], step);
        if (interruption.exitCode !== undefined || prepared === undefined) {
          throw new PkgError(
            interruption.exitCode ?? ExitCode.Interrupted,
            `${entry.version}: preparation stopped; no manifest written`,
          );
        }
        if (options.format === "json") printJson(prepared);
        if (prepared.failed.length > 0) {
          throw new PkgError(
            ExitCode.Failed,
            `${entry.version}: ${prepared.failed.map((f) => f.platform).join(", ")} failed to prepare`,
          );
        }
      } finally {
        interruption.dispose();
        await http.close();
      }
    });
}

/** The plan entry `tag` names; a drift entry or an unknown tag is exit 65. */
function planEntry(versions: readonly PlanVersion[], tag: string, planPath: string): PlanVersion {
  const entry = versions.find((v) => v.version === tag);
  if (entry === undefined) {
    const known = versions.filter((v) => v.kind !== "metadata-drift").map((v) => v.version);
    throw new PkgError(
      ExitCode.Data,
      `${planPath} has no version ${tag} (${known.length > 0 ? `it plans ${known.join(", ")}` : "it plans nothing"})`,
    );
  }
  if (entry.kind === "metadata-drift")
    throw new PkgError(
      ExitCode.Data,
      `${tag} is a metadata-drift entry: pipeline patch corrects it, prepare builds nothing`,
    );
  return entry;
}
