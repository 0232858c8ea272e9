import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { buildLazyTree, type LazyGroup, readPackageVersion } from "@pkg/common";
import { pipelineTree } from "./commands/pipeline/index.js";
import { schemaCommand } from "./commands/schema.js";

/**
 * The command tree, each subcommand's module imported only when the command line reaches it
 * (see `buildLazyTree`): `--help` or `package pipeline push` load what they show or run. `schema`,
 * the one command at the top (the root listing builds it), is small and defined with the bin.
 */
const tree: LazyGroup = {
  command: rootCommand,
  children: {
    package: {
      command: () => new Command("package").description("Work with one tool's mirror spec."),
      children: {
        validate: async () => (await import("./commands/validate.js")).validateCommand(),
        check: async () => (await import("./commands/check.js")).checkCommand(),
        sync: async () => (await import("./commands/sync.js")).syncCommand(),
        pipeline: pipelineTree,
      },
    },
    schema: async () => schemaCommand(),
  },
};

/** The program for one command line (`args`: what follows `pkg-mirror`). */
export function buildProgram(args: readonly string[]): Promise<CommandUnknownOpts> {
  return buildLazyTree(tree, args);
}

function rootCommand(): CommandUnknownOpts {
  const version = readPackageVersion(new URL("../../package.json", import.meta.url));
  return (
    new Command("pkg-mirror")
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
      )
  );
}
