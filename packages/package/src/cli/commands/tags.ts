import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger } from "@pkg/common";
import { readOnly } from "@pkg/oci";
import { listTagPlatforms } from "../../inspect/tag-platforms.js";
import { layoutOptionHelp, openReference } from "../target.js";

export function tagsCommand() {
  return new Command("tags")
    .description(
      "List a repository's tags with the digest and platforms behind each. A repository that does not exist is an error (exit 65); one without tags says so on stderr (exit 0).",
    )
    .argument("<repository>", "REGISTRY/REPOSITORY; with --layout, REPOSITORY")
    .option("--layout <dir>", layoutOptionHelp)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .action(async (ref, options) => {
      const { target } = openReference(ref, options.layout);
      const rows = await listTagPlatforms(readOnly(target));
      if (rows.length === 0) {
        stderrLogger({ quiet: options.format === "json" }).info(`${target.displayName}: no tags`);
      }
      if (options.format === "json") {
        printJson(rows);
        return;
      }
      const width = Math.max(3, ...rows.map((r) => r.tag.length));
      for (const row of rows) {
        const what = row.platforms.length > 0 ? row.platforms.join(" ") : row.kind;
        process.stdout.write(`${row.tag.padEnd(width)}  ${row.digest.slice(0, 19)}  ${what}\n`);
      }
    });
}
