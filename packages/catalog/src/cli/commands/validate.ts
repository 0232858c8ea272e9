import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger } from "@pkg/common";
import { DEFAULT_CONFIG_FILE } from "../../config/default-file.js";

export function validateCommand() {
  return new Command("validate")
    .description("Check a catalog.config.json against every rule, without reading any source.")
    .argument("[config]", "the config file", DEFAULT_CONFIG_FILE)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .addHelpText(
      "after",
      `
Prints "ok: <file>" and exits 0, or prints the first problem on one line (it starts with its code,
e.g. UNKNOWN_KEY, and names the key) and exits 65. With --format json, stdout gets
{"ok":true,"file":...} or {"ok":false,"file":...,"code":...,"keyPath":...,"message":...}.`,
    )
    .action(async (file, options) => {
      const [{ ConfigError }, { loadCatalogConfig }] = await Promise.all([
        import("../../config/errors.js"),
        import("../../config/load.js"),
      ]);
      try {
        await loadCatalogConfig(file);
      } catch (error) {
        if (error instanceof ConfigError && options.format === "json") {
          printJson({ ok: false, file, code: error.code, keyPath: error.keyPath, message: error.message });
        }
        throw error;
      }
      if (options.format === "json") printJson({ ok: true, file });
      else stderrLogger().info(`ok: ${file}`);
    });
}
