import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { buildLazyTree, type LazyGroup, readPackageVersion } from "@pkg/common";

/**
 * Each subcommand lives in `commands/<name>.ts` and is added here with one line; its module is
 * imported only when the command line reaches it (see `buildLazyTree`).
 */
const tree: LazyGroup = {
  command: rootCommand,
  children: {
    validate: async () => (await import("./commands/validate.js")).validateCommand(),
    build: async () => (await import("./commands/build.js")).buildCommand(),
    ci: async () => (await import("./commands/ci.js")).ciCommand(),
    dev: async () => (await import("./commands/dev.js")).devCommand(),
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
