import { mkdir, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { Command, Option } from "@commander-js/extra-typings";
import { ExitCode, PkgError, readPackageVersion, stderrLogger, writeAtomically } from "@pkg/common";
import { readPlanDocument } from "../../../pipeline/documents/read-plan.js";
import { generateCi } from "../../../pipeline/generate-ci/generate.js";
import { gitlabChildPipeline } from "../../../pipeline/generate-ci/gitlab/child.js";
import { headerLines } from "../../../pipeline/generate-ci/header.js";
import { repoRelative } from "../../../pipeline/generate-ci/load-slots.js";
import { TOOLCHAIN_VERSION } from "../../../pipeline/generate-ci/pins.js";
import { yamlText } from "../../../pipeline/generate-ci/yaml-text.js";
import { PKG_CONTAINER_CLI_TAG } from "../../../pipeline/test-leg/pkg-release.js";
import { formatDiagnostic } from "../../../spec/diagnostics.js";
import { findRepoRoot, loadMirrorSpec } from "../../../spec/loader.js";

const version = readPackageVersion(new URL("../../../../package.json", import.meta.url));
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];
const forgeOption = () =>
  new Option("--forge <forge>", "forgeone (GitHub-style workflows) or forgetwo (a GitLab-style pipeline)")
    .choices(["forgeone", "forgetwo"] as const)
    .default("forgeone" as const);

/** `pkg-mirror package pipeline generate`: the CI that runs the pipeline, rendered from specs. */
export function pipelineGenerateCommand() {
  return new Command("generate")
    .description("Render the CI that runs the pipeline on a forge, from the specs.")
    .addCommand(generateCiCommand())
    .addCommand(generateChildCommand());
}

function generateCiCommand() {
  return new Command("ci")
    .description(
      "Write the CI workflows of every spec of the repository (or, with --check, compare them): mirror, describe, patch, cascade and announce-from-registry per spec, one drift guard per repository.",
    )
    .option("--spec <file>", "a spec (repeatable; default ./mirror.yml)", collect)
    .option(
      "--repo-root <dir>",
      "the repository root, where .github/workflows/ is (default: the deepest directory every spec shares)",
    )
    .option("--check", "write nothing: report drift: and stale: files, exit 65 when there are any")
    .addOption(forgeOption())
    .addHelpText(
      "after",
      `
Files (forgeone), under .github/workflows/: mirror.yml (discover -> prepare per version ->
test per leg and container -> push -> notify), describe.yml, patch.yml, cascade.yml (unless
cascade: false), announce-from-registry.yml (with an announce block), and one
verify-generated.yml (the drift guard; left out only when every spec sets
allow_manual_edits: true). The root spec keeps the bare names; a spec in a directory gets
the directory as a suffix, / as - (mirror-tools-jq.yml). Every file starts with a
generated-file header. Actions are pinned by commit SHA; jobs install the pkg toolchain
${TOOLCHAIN_VERSION} (container legs mount pkg ${PKG_CONTAINER_CLI_TAG}): regenerate after
upgrading pkg-mirror. Registry: on the forge's own registry (ghcr.io, registry.gitlab.com) the
run's token and explicit package scopes; elsewhere the PKG_MIRROR_REGISTRY_USER/TOKEN secrets
(push, describe, patch, cascade and announce are skipped with a notice without them).
--forge forgetwo writes one .gitlab-ci.yml: per spec a discover job that plans and renders the
run's child pipeline (pipeline generate child), the trigger running it, and describe, patch,
cascade and announce-from-registry jobs a manual or scheduled pipeline selects with
PKG_MIRROR_WORKFLOW. Writing removes generated files no spec renders any more; a hand-written
file in the way is never overwritten (64). --check compares ignoring action pins (a pin bump
is not drift), prints drift: <path> and stale: <path>.
Exit codes: 0 written or up to date; 64 usage (two specs in one directory, a spec outside
--repo-root, an extends base outside it, names that collide, a hand-written file in the way);
65 a bad spec (no platforms or tests, a test script: that resolves to nothing), or --check
found drift or stale files.`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const result = await generateCi({
        specs: options.spec ?? [],
        ...(options.repoRoot === undefined ? {} : { repoRoot: options.repoRoot }),
        forge: options.forge,
        check: options.check === true,
        generatorVersion: version,
        env: process.env,
      });
      for (const warning of result.specWarnings) log.warn(formatDiagnostic(warning));
      for (const warning of result.warnings) log.warn(warning);
      if (options.check) {
        const lines = [...result.drift.map((p) => `drift: ${p}`), ...result.stale.map((p) => `stale: ${p}`)];
        for (const line of lines) process.stderr.write(`${line}\n`);
        if (lines.length > 0) {
          throw new PkgError(
            ExitCode.Data,
            `${lines.length} generated file(s) differ from what the specs render: run pkg-mirror package pipeline generate ci and commit the result`,
          );
        }
        process.stdout.write(`up to date: ${result.files.length} generated file(s)\n`);
        return;
      }
      for (const path of result.written) process.stdout.write(`wrote ${path}\n`);
      for (const path of result.stale)
        process.stdout.write(`removed ${path} (no spec renders it any more)\n`);
      if (result.written.length === 0 && result.stale.length === 0)
        process.stdout.write(`up to date: ${result.files.length} generated file(s)\n`);
    });
}

function generateChildCommand() {
  return new Command("child")
    .description(
      "GitLab-style CI: print the child pipeline of one run from plan.json (prepare per version, test per leg and container, push, notify); the generated discover job runs this.",
    )
    .requiredOption("--plan <file>", "the plan.json of pipeline plan")
    .option("--spec <file>", "the spec file", "mirror.yml")
    .option(
      "--repo-root <dir>",
      "repository root, which names the spec's jobs (default: the nearest directory above the spec holding .git)",
    )
    .option("-o, --output <file>", "write the pipeline to FILE instead of stdout")
    .addHelpText(
      "after",
      `
Jobs: prepare:<tag> per version (plan.json from the parent's discover job), test:<slug>:<container>
per leg and container with the leg's runner labels as tags, push (gating on the JUnit files,
run-summary.json) and notify; artefacts bundle-<tag>, junit-<slug>-<container>, run-summary. A
plan with nothing new renders one job saying so.
Exit codes: 0 rendered; 64 usage; 65 a bad spec or a file that is not a plan.json.`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const plan = await readPlanDocument(options.plan, log);
      const specFile = resolve(options.spec);
      const repoRoot = resolve(options.repoRoot ?? findRepoRoot(dirname(specFile)));
      const loaded = await loadMirrorSpec(specFile, { repoRoot });
      for (const warning of loaded.warnings) log.warn(formatDiagnostic(warning));
      const specPath = repoRelative(repoRoot, specFile);
      if (specPath.startsWith("../")) {
        throw new PkgError(ExitCode.Usage, `${specFile} is outside the repository root ${repoRoot}`);
      }
      const slot = { spec: loaded.spec, dir: repoRelative(repoRoot, dirname(specFile)), specPath };
      const text = yamlText(headerLines(version, [specPath]), gitlabChildPipeline(slot, plan));
      if (options.output === undefined) {
        process.stdout.write(text);
        return;
      }
      const output = resolve(options.output);
      await mkdir(dirname(output), { recursive: true });
      await writeAtomically(output, "pipeline", (temp) => writeFile(temp, text));
    });
}
