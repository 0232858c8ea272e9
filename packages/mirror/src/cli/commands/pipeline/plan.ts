import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { writeAtomically } from "@pkg/package/bundle";
import type { PlanDocument } from "../../../pipeline/documents/plan-document.js";
import { formatPlan } from "../../../pipeline/plan/format.js";
import { planPipeline } from "../../../pipeline/plan/plan-pipeline.js";
import { formatDiagnostic } from "../../../spec/diagnostics.js";
import { loadMirrorSpec } from "../../../spec/loader.js";
import { repoRootOption, verifyPublishedOption } from "../../shared-options.js";

export function pipelinePlanCommand() {
  return new Command("plan")
    .description(
      "Plan a CI run as plan.json: the (version, platform) pairs still to build (decided exactly as check and sync decide them), published versions whose metadata the spec has since changed, and the CI legs. Reads only.",
    )
    .option("--spec <file>", "the spec file", "./mirror.yml")
    .option(
      "--format <format>",
      "stdout: text (the target, the resolved window and a table) or json (plan.json)",
      parseFormat,
      "text" as const,
    )
    .option(
      "--locks-dir <dir>",
      "Python sources (pypi): where derived locks are written, pylock.<package>-<version>.toml, each plan entry's pylock naming its file",
      "./locks",
    )
    .option("-o, --output <file>", "also write plan.json to FILE (complete or not at all)")
    .addOption(verifyPublishedOption())
    .addOption(repoRootOption())
    .addHelpText(
      "after",
      `
Kinds: new (nothing of the version published), backfill (some of its platforms published earlier:
carried into its tags), metadata-drift (published, but the metadata the spec selects has changed
since: fix with pkg-mirror package pipeline patch; a version with pairs to build is never also
drift). Each entry's version is the tag to publish, fixed now: prepare --version, the artefacts and
the JUnit files use it. Versions that are whole but owe their exact and rolling tags are no
entries: the text output lists them for pipeline cascade. Any registry failure (5xx, network)
fails the plan with exit 69; it never reports published versions as new. The JSON Schema:
pkg-mirror schema plan. Exit codes: 0 planned, 64 usage, 65 bad spec or bad data in the target,
69 source, bound or registry unavailable, 82 a Python source (not planned here yet).`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const loaded = await loadMirrorSpec(options.spec, { repoRoot: options.repoRoot });
      for (const warning of loaded.warnings) log.warn(formatDiagnostic(warning));
      const http = createHttpClient({ env: process.env, userAgent: "pkg-mirror" });
      try {
        const plan = await planPipeline(loaded, {
          env: process.env,
          log,
          http,
          verifyPublished: options.verifyPublished === true,
          python: { locksDir: options.locksDir },
        });
        if (options.output !== undefined) await writePlan(options.output, plan.document);
        if (options.format === "json") printJson(plan.document);
        else process.stdout.write(`${formatPlan(plan)}\n`);
      } finally {
        await http.close();
      }
    });
}

/** plan.json at `file` (its directory made when missing): written beside it, then renamed into place. */
async function writePlan(file: string, document: PlanDocument): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeAtomically(file, "plan", (temp) => writeFile(temp, `${JSON.stringify(document, null, 2)}\n`));
}
