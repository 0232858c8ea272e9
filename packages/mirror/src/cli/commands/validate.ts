import { Command } from "@commander-js/extra-typings";
import { PkgError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { formatDiagnostic, SpecError } from "../../spec/diagnostics.js";
import { loadMirrorSpec } from "../../spec/loader.js";
import { summarize } from "../../spec/summary.js";

export function validateCommand() {
  return new Command("validate")
    .description("Load a mirror.yml and report every problem in it, without touching the network.")
    .argument("[spec]", "the spec file", "mirror.yml")
    .option(
      "--repo-root <dir>",
      "repository root (default: the nearest directory above the spec holding .git)",
    )
    .option(
      "--format <format>",
      "output: text or json (json prints the problems as data on stdout)",
      parseFormat,
      "text" as const,
    )
    .action(async (specPath, options) => {
      const log = stderrLogger();
      try {
        const loaded = await loadMirrorSpec(specPath, { repoRoot: options.repoRoot });
        if (options.format === "json") {
          printJson({ valid: true, file: specPath, chain: loaded.chain, warnings: loaded.warnings });
        } else {
          for (const warning of loaded.warnings) log.warn(formatDiagnostic(warning));
          log.info(`${specPath}: valid: ${summarize(loaded.spec)}`);
        }
      } catch (error) {
        if (!(error instanceof SpecError) || error.diagnostics.length === 1) {
          if (error instanceof SpecError && options.format === "json") {
            printJson({ valid: false, file: specPath, errors: error.diagnostics });
          }
          throw error;
        }
        // several problems: every one gets its line (or its record), the last line counts them
        if (options.format === "json") printJson({ valid: false, file: specPath, errors: error.diagnostics });
        else for (const problem of error.diagnostics) log.info(formatDiagnostic(problem));
        throw new PkgError(error.exitCode, `${specPath}: ${error.diagnostics.length} problems`);
      }
    });
}
