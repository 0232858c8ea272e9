import { Command } from "@commander-js/extra-typings";
import { dataError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { DEFAULT_CONFIG_FILE } from "../../config/default-file.js";

export function ciCommand() {
  return new Command("ci")
    .description("Write the CI workflow that builds and publishes the catalog, per the config's ci section.")
    .argument("[config]", "the config file", DEFAULT_CONFIG_FILE)
    .option("--check", "write nothing; exit 65 if a committed file differs from what would be written")
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
ci.forge "github" writes .github/workflows/catalog.yml; "gitlab" writes .gitlab/ci/catalog.yml, to
include from .gitlab-ci.yml. Paths are relative to the config file's directory. With --format json,
stdout gets {"config":...,"ok":...,"files":[{"path":...,"state":"up-to-date"|"differs"|"missing"}]}.`,
    )
    .action(async (configPath, options) => {
      const check = options.check === true;
      const { runCi } = await import("../../ci/run-ci.js");
      const run = await runCi(configPath, { check });
      const stale = run.files.filter((file) => file.state !== "up-to-date");
      const log = stderrLogger();
      if (options.format === "json") {
        printJson({ config: run.config, ok: stale.length === 0, files: run.files });
      } else if (!check) {
        for (const file of run.files) log.info(`wrote ${file.path}`);
      } else {
        for (const file of stale) {
          log.info(
            `${file.path}: ${file.state === "missing" ? "missing" : "differs from what pkg-catalog ci renders"}`,
          );
        }
        if (stale.length === 0) log.info(`ok: ${run.files.length} CI file(s) up to date`);
      }
      if (stale.length > 0) {
        throw dataError(
          `${stale.length} of ${run.files.length} CI file(s) out of date; run pkg-catalog ci to update`,
        );
      }
    });
}
