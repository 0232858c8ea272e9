import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { readPackageVersion } from "@pkg/common";
import { buildCommand } from "./commands/build.js";
import { ciCommand } from "./commands/ci.js";
import { devCommand } from "./commands/dev.js";
import { validateCommand } from "./commands/validate.js";

const version = readPackageVersion(new URL("../../package.json", import.meta.url));

/** Each subcommand lives in `commands/<name>.ts` and is added here with one line. */
export function buildProgram(): CommandUnknownOpts {
  const program = new Command("pkg-catalog")
    .description("Render a static, browsable catalog site from pkg package indexes, per catalog.config.json.")
    .version(version)
    .addHelpText(
      "after",
      `
Exit codes: 0 ok, 1 failed, 64 usage, 65 bad config or index data, 69 unavailable (a source
cannot be fetched, a busy --port), 74 I/O.`,
    );
  program.addCommand(validateCommand());
  program.addCommand(buildCommand());
  program.addCommand(ciCommand());
  program.addCommand(devCommand());
  return program;
}
