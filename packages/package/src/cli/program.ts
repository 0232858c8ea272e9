import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { buildFullTree, buildLazyTree, type LazyGroup } from "@pkg/common";
import { TOOL_VERSION } from "../version-info.js";
import { execCommand } from "./commands/exec.js";

/**
 * The command tree, each subcommand's module imported only when the command line reaches it
 * (see `buildLazyTree`): `pkg exec` and `pkg package push` load what they run, not the rest.
 * `exec`, the one command at the top (the root listing builds it, and loops call it), is defined
 * in the bin's own module; it imports its work when it runs.
 */
const tree: LazyGroup = {
  command: rootCommand,
  children: {
    package: {
      command: () => new Command("package").description("Work with packages."),
      children: {
        create: async () => (await import("./commands/create.js")).createCommand(),
        push: async () => (await import("./commands/push.js")).pushCommand(),
        describe: async () => (await import("./commands/describe.js")).describeCommand(),
        pull: async () => (await import("./commands/pull.js")).pullCommand(),
        tags: async () => (await import("./commands/tags.js")).tagsCommand(),
        test: async () => (await import("./commands/test.js")).testCommand(),
        announce: async () => (await import("./commands/announce.js")).announceCommand(),
        sign: async () => (await import("./commands/sign.js")).signCommand(),
        verify: async () => (await import("./commands/verify.js")).verifyCommand(),
        cascade: async () => (await import("./commands/cascade.js")).cascadeCommand(),
      },
    },
    exec: async () => execCommand(),
  },
};

/** The program for one command line (`args`: what follows `pkg`). */
export function buildProgram(args: readonly string[]): Promise<CommandUnknownOpts> {
  return buildLazyTree(tree, args);
}

/** The program with every command built: for what reads the command tree itself (tests). */
export function buildFullProgram(): Promise<CommandUnknownOpts> {
  return buildFullTree(tree);
}

function rootCommand(): CommandUnknownOpts {
  return new Command("pkg")
    .description("Create, publish, fetch and run pkg packages: tool releases as OCI artifacts.")
    .version(TOOL_VERSION)
    .addHelpText(
      "after",
      `
Registry credentials come from PKG_AUTH_<HOST>_TYPE/_USER/_TOKEN, then ~/.netrc (or $NETRC),
then Docker's config.json; never from the command line. Signing secrets likewise: PKG_SIGNING_KEY
(or any variable named with --key env://NAME), PKG_KEY_PASSWORD, PKG_IDENTITY_TOKEN; the commands
pkg runs never see these three.
Exit codes: 0 ok, 1 failed, 64 usage, 65 bad input, 69 registry unavailable,
74 I/O error, 75 transient registry failure (retry), 78 a signing secret resolves to nothing,
80 authentication rejected, 82 unsupported (a key-management-service key);
pkg exec ends with its command's status once the command runs.`,
    );
}
