import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger, writeAtomically } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
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
pkg-mirror schema plan.

Python sources (pylock, pypi): one column per wheels key. For pypi each planned version's lock is
derived with uv (PKG_MIRROR_UV names another binary): uv pip compile of <package>[extras]==<version>
for python.version's X.Y (universal unless python.lock.universal is false), the spec's indexes with
the first-index strategy (every index but the last as --index, the last as --default-index),
python.lock.exclude as --no-emit-package, killed after python.lock.timeout_seconds; index
credentials (PKG_AUTH_<host>_*, netrc) reach uv only through UV_INDEX_<NAME>_USERNAME/PASSWORD.
The lock, its requires-python floor relaxed to X.Y and a provenance header added, is written as
<locks-dir>/pylock.<package>-<version>.toml (dots in that segment as dashes) once it re-parses and
locks the app from wheels only; the entry's pylock is its path relative to -o's directory (else
to the working directory).

Exit codes: 0 planned, 1 resolver missing, timed out or a lock not written, 64 usage, 65 bad spec,
bad data in the target or a resolution failure, 69 source, bound or registry unavailable.`,
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
          python: {
            locksDir: options.locksDir,
            planDir: options.output === undefined ? process.cwd() : dirname(resolve(options.output)),
          },
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
