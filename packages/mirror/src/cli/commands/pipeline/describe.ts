import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { describeStep } from "../../../pipeline/describe-step/describe-step.js";
import { repoRootOption } from "../../shared-options.js";
import { loadRunnableSpec, openSpecTarget } from "../../spec-target.js";

export function pipelineDescribeCommand() {
  return new Command("describe")
    .description(
      "Publish the spec's catalog README and logo as the target repository's description (the __pkg.desc tag), unless it holds the same one already.",
    )
    .option("--spec <file>", "the spec file", "mirror.yml")
    .option("--layout <dir>", "publish into an OCI image layout under DIR instead of the spec's registry")
    .option(
      "--locks-dir <dir>",
      "a pypi source's locks as pipeline plan derived them: the newest describes it when there is no README",
      "./locks",
    )
    .addOption(repoRootOption())
    .option("--format <format>", "output: text or json (the outcome)", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
The README is catalog.readme (default CATALOG.md), the logo catalog.logo, else logo.svg, else
logo.png; all relative to the spec's directory. No README: a log line and exit 0 (status
nothing_to_describe). The same README and logo as published: nothing is pushed (unchanged).
A Python source (pylock, pypi) without a README gets one from its root wheel's core metadata:
the Summary as the lead paragraph, then Keywords and License lines; the wheel comes from the
committed lock, or for pypi from the newest lock under --locks-dir (none there: nothing to
describe). The index picks the description up on the next announce (pipeline announce).
Exit codes: 0 published, unchanged or nothing to describe; 64 usage; 65 bad spec, a catalog path
that is set and missing, or logo bytes that are not what the extension says (.svg, .png);
69/75/80 registry failures.`,
    )
    .action(async (options) => {
      const log = stderrLogger();
      const { loaded, spec } = await loadRunnableSpec(options.spec, options.repoRoot, log);
      const target = openSpecTarget(spec, { layout: options.layout, env: process.env });
      const http = createHttpClient({ env: process.env, userAgent: "pkg-mirror" });
      try {
        const outcome = await describeStep(spec, target, log, {
          repoRoot: loaded.repoRoot,
          locksDir: options.locksDir,
          http,
          log,
        });
        if (options.format === "json") printJson(outcome);
      } finally {
        await http.close();
      }
    });
}
