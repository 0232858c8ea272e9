import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { readPackageVersion } from "@pkg/common";
import { checkCommand } from "./commands/check.js";
import { pipelineCommand } from "./commands/pipeline/index.js";
import { schemaCommand } from "./commands/schema.js";
import { syncCommand } from "./commands/sync.js";
import { validateCommand } from "./commands/validate.js";

const version = readPackageVersion(new URL("../../package.json", import.meta.url));

export function buildProgram(): CommandUnknownOpts {
  const program = new Command("pkg-mirror")
    .description("Mirror upstream tool releases into OCI registries, driven by a mirror.yml per tool.")
    .version(version)
    // `package check --version V` is the subcommand's own option, not the program's version flag
    .enablePositionalOptions()
    .addHelpText(
      "after",
      `
Exit codes: 0 ok, 1 run failed, 64 usage, 65 bad spec or input, 69 source or registry
unavailable, 75 transient push failure, 77 not allowlisted, 78 configuration, 80 auth
rejected, 82 unsupported, 130/143 stopped by SIGINT/SIGTERM.`,
    );
  const pkg = new Command("package").description("Work with one tool's mirror spec.");
  pkg.addCommand(validateCommand());
  pkg.addCommand(checkCommand());
  pkg.addCommand(syncCommand());
  pkg.addCommand(pipelineCommand());
  program.addCommand(pkg);
  program.addCommand(schemaCommand());
  return program;
}
