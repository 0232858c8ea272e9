import { Command } from "@commander-js/extra-typings";
import { describeError, parseFormat, printJson, stderrLogger } from "@pkg/common";
import { DEFAULT_CONFIG_FILE } from "../../config/default-file.js";

export function buildCommand() {
  return new Command("build")
    .description("Render the catalog site into a directory, replacing its previous content atomically.")
    .argument("[config]", "the config file", DEFAULT_CONFIG_FILE)
    .requiredOption("--out <dir>", "output directory (replaced only when the build succeeds)")
    .option(
      "--cache-dir <dir>",
      "cache for url sources (revalidated with ETags) and build memos (default $XDG_CACHE_HOME/pkg-catalog)",
    )
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
Progress and warnings go to stderr, then "built N packages from M indexes into DIR in S s" (and the warning count).
With --format json, stdout gets the build report. A failed build leaves the previous output as it was.
Onto the output of an earlier build, only what changed is read, rendered and written (the memo of
that build is kept in the cache directory); the report's packageData, packagePages and fileChanges
say what was read, rendered and written. A build stopped while it moved its changes in is finished by
the next build; temporary directories that stopped builds left beside --out are removed.
--out must be new, empty, or an earlier site of pkg-catalog (its catalog.json says so): anything else
is refused, never replaced.
Exit codes: 64 --out refused, 65 bad config or index data, 69 a source cannot be fetched, 74 I/O.`,
    )
    .action(async (file, options) => {
      // loaded here, not at start-up: `pkg-catalog --help` and the other commands pay nothing for it
      const [{ buildCatalog }, { summaryLine }] = await Promise.all([
        import("../../build/build-catalog.js"),
        import("../../build/report.js"),
      ]);
      const logger = stderrLogger();
      // the summary line and the error say how the build ended
      const task = logger.tasks.start(`build ${options.out}`, { quiet: true });
      let phase = "";
      const report = await buildCatalog({
        configPath: file,
        outDir: options.out,
        ...(options.cacheDir === undefined ? {} : { cacheDir: options.cacheDir }),
        warn: (line) => logger.warn(line),
        info: (line) => logger.info(line),
        log: (line) => {
          phase = line;
          task.state(line);
        },
        onPages: (done, added) => task.state(`${phase}: package pages ${done}/${added}`),
      }).catch((error: unknown) => {
        task.failed(describeError(error).line);
        throw error;
      });
      task.done();
      logger.info(summaryLine(report));
      if (options.format === "json") printJson(report);
    });
}
