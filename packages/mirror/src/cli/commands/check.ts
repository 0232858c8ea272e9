import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { runCheck } from "../../pipeline/check.js";
import { formatCheckReport } from "../../pipeline/check-format.js";
import { ambiguityError } from "../../plan/resolve-assets.js";
import { formatDiagnostic } from "../../spec/diagnostics.js";
import { loadMirrorSpec } from "../../spec/loader.js";
import { repoRootOption, verifyPublishedOption } from "../shared-options.js";

export function checkCommand() {
  return new Command("check")
    .description(
      "Show which (version, platform) pairs upstream offers and the target lacks, without downloading or pushing.",
    )
    .argument("[spec]", "the spec file", "mirror.yml")
    .option("--version <version>", "report this version only")
    .option("--latest", "report the newest release inside the window only (never a pre-release)")
    .addOption(verifyPublishedOption())
    .addOption(repoRootOption())
    .option(
      "--format <format>",
      "output: text (a table) or json (the same as data, with versions_resolved)",
      parseFormat,
      "text" as const,
    )
    .addHelpText(
      "after",
      `
Cells: new (to publish), missing (a platform a published version lacks), published,
absent (no upstream asset matches), excluded (a broken exclude, with its reason),
ambiguous (several assets match), - (outside the platform's window or a skip exclude).
The whole report is printed; when a reported pair is ambiguous the command then exits 65
naming it.`,
    )
    .action(async (specPath, options) => {
      const log = stderrLogger();
      const loaded = await loadMirrorSpec(specPath, { repoRoot: options.repoRoot });
      for (const warning of loaded.warnings) log.warn(formatDiagnostic(warning));
      const http = createHttpClient({ env: process.env, userAgent: "pkg-mirror" });
      try {
        const report = await runCheck(loaded, {
          ...(options.version === undefined ? {} : { version: options.version }),
          latest: options.latest === true,
          verifyPublished: options.verifyPublished === true,
          env: process.env,
          log,
          http,
        });
        if (options.format === "json") printJson(report);
        else process.stdout.write(`${formatCheckReport(report)}\n`);
        const [first, ...rest] = report.ambiguities;
        if (first) throw ambiguityError([first, ...rest]);
      } finally {
        await http.close();
      }
    });
}
