import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { buildLazyTree, type LazyGroup, readPackageVersion } from "@pkg/common";
import { buildCommand } from "./commands/build.js";
import { ciCommand } from "./commands/ci.js";
import { devCommand } from "./commands/dev.js";
import { validateCommand } from "./commands/validate.js";

/**
 * Each subcommand lives in `commands/<name>.ts` and is added here with one line. Their definitions
 * are small and load together (one module in the bundled bin: the root listing needs them all, and
 * a module apiece cost more start-up than their code); each one imports its work when it runs.
 */
const tree: LazyGroup = {
  command: rootCommand,
  children: {
    validate: async () => validateCommand(),
    build: async () => buildCommand(),
    ci: async () => ciCommand(),
    dev: async () => devCommand(),
  },
};

/** The program for one command line (`args`: what follows `pkg-catalog`). */
export function buildProgram(args: readonly string[]): Promise<CommandUnknownOpts> {
  return buildLazyTree(tree, args);
}

function rootCommand(): CommandUnknownOpts {
  const version = readPackageVersion(new URL("../../package.json", import.meta.url));
  return new Command("pkg-catalog")
    .description("Render a static, browsable catalog site from pkg package indexes, per catalog.config.json.")
    .version(version)
    .addHelpText(
      "after",
      `
Exit codes: 0 ok, 1 failed, 64 usage, 65 bad config or index data, 69 unavailable (a source
cannot be fetched, a busy --port), 74 I/O.`,
    );
}
