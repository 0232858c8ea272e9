import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson } from "@pkg/common";
import { parseReference } from "@pkg/oci";
import { listTagPlatforms } from "../../inspect/tag-platforms.js";
import { layoutOptionHelp, openTarget } from "../target.js";

export function tagsCommand() {
  return new Command("tags")
    .description("List a repository's tags with the digest and platforms behind each.")
    .argument("<repository>", "REGISTRY/REPOSITORY")
    .option("--layout <dir>", layoutOptionHelp)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .action(async (ref, options) => {
      const reference = parseReference(ref);
      const rows = await listTagPlatforms(openTarget(reference, options.layout));
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
