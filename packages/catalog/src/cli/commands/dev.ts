import { Command } from "@commander-js/extra-typings";
import { integerOption, stderrLogger } from "@pkg/common";
import { DEFAULT_CONFIG_FILE } from "../../config/default-file.js";

export function devCommand() {
  return new Command("dev")
    .description("Build the catalog, serve it locally and rebuild and reload the browser on every change.")
    .argument("[config]", "the config file", DEFAULT_CONFIG_FILE)
    .option(
      "--port <n>",
      "port to serve on; must be free (default: 4321, else any free port)",
      integerOption("--port", 1, 65535),
    )
    .option("--host <host>", "address to serve on", "127.0.0.1")
    .addHelpText(
      "after",
      `
Watches the config file and everything it names on disk (path sources, docs, css, publicDir,
brand.logo). A failed rebuild keeps the last good site served and shows its error in the page
and on stderr. The site is built into a private temporary directory, removed on Ctrl+C or SIGTERM.`,
    )
    .action(async (configPath, options) => {
      const [{ BuildState, buildCatalog }, { changesLine }, { startDevServer }, { listenForStopSignal }] =
        await Promise.all([
          import("../../build/build-catalog.js"),
          import("../../build/report.js"),
          import("../../dev/dev-server.js"),
          import("../../dev/stop-signal.js"),
        ]);
      const stop = listenForStopSignal();
      const log = stderrLogger();
      // what each build leaves (its memo) for the next, which then reads and writes only what changed
      const state = new BuildState();
      try {
        const server = await startDevServer({
          configPath,
          host: options.host,
          port: options.port,
          log,
          build: async (outDir) => {
            const report = await buildCatalog({
              configPath,
              outDir,
              state,
              warn: (message) => log.warn(message),
            });
            return changesLine(report);
          },
        });
        log.info(`serving ${server.url}`);
        await stop.received;
        await server.close();
      } finally {
        stop.dispose();
        await state.close();
      }
    });
}
