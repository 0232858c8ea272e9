import { Command } from "@commander-js/extra-typings";
import { parseFormat, printJson, stderrLogger } from "@pkg/common";
import { describePackage } from "../../describe/describe.js";
import { DESCRIPTION_TAG } from "../../media-types.js";
import { layoutOptionHelp, openReference } from "../target.js";

export function describeCommand() {
  return new Command("describe")
    .description(
      `Publish a repository's description (README and logo) at the ${DESCRIPTION_TAG} tag; when the tag holds the same description already, nothing is pushed.`,
    )
    .argument("<repository>", "REGISTRY/REPOSITORY, with --layout REPOSITORY (a tag, if given, is ignored)")
    .requiredOption("--readme <file>", "Markdown README")
    .option("--logo <file>", "logo: .svg or .png; bytes that are not what the extension says are exit 65")
    .option("--layout <dir>", layoutOptionHelp)
    .option("--format <format>", "output: text or json", parseFormat, "text" as const)
    .action(async (ref, options) => {
      const log = stderrLogger({ quiet: options.format === "json" });
      const { target } = openReference(ref, options.layout);
      const report = await describePackage(target, {
        readmePath: options.readme,
        logoPath: options.logo,
      });
      if (options.format === "json") printJson(report);
      else if (report.status === "unchanged")
        log.info(`${report.repository}:${report.tag} unchanged (${report.manifestDigest}): nothing pushed`);
      else log.info(`described ${report.repository}:${report.tag} -> ${report.manifestDigest}`);
    });
}
