import type { CommandUnknownOpts } from "@commander-js/extra-typings";

/** A leaf command, built (and its module imported) only when the command line needs it. */
export type CommandLoader = () => Promise<CommandUnknownOpts>;

/** A command made of subcommands: itself cheap to build, its children loaded on demand. */
export interface LazyGroup {
  command: () => CommandUnknownOpts;
  children: Record<string, LazyNode>;
}

export type LazyNode = CommandLoader | LazyGroup;

/**
 * Builds a command tree for one command line, importing only the subcommands it reaches: the
 * named child at each level, every child of a group whose listing is shown (its `--help`, `help`,
 * an option or an unknown name), and no child of a group only listed by its parent. Each bin
 * thereby loads the modules of the command it runs and nothing else.
 */
export async function buildLazyTree(root: LazyGroup, args: readonly string[]): Promise<CommandUnknownOpts> {
  return buildGroup(root, [...args]);
}

/** The whole tree, every subcommand built: for what reads the program itself (its tests, docs). */
export async function buildFullTree(group: LazyGroup): Promise<CommandUnknownOpts> {
  const command = group.command();
  const built = await Promise.all(
    Object.values(group.children).map((node) => (typeof node === "function" ? node() : buildFullTree(node))),
  );
  for (const child of built) command.addCommand(child);
  return command;
}

/** `words`: the rest of the command line; undefined when the group is only listed, not entered. */
async function buildGroup(group: LazyGroup, words: string[] | undefined): Promise<CommandUnknownOpts> {
  const command = group.command();
  if (words === undefined) return command;
  let [word, ...rest] = words;
  let listing = false;
  // `help NAME` shows NAME's help, and NAME's listing when it is a group
  if (word === "help" && !Object.hasOwn(group.children, "help")) {
    [word, ...rest] = rest;
    listing = true;
  }
  const named = word !== undefined && Object.hasOwn(group.children, word) ? word : undefined;
  const chosen = named === undefined ? Object.keys(group.children) : [named];
  const built = await Promise.all(
    chosen.map((name) => {
      const node = group.children[name] as LazyNode;
      if (typeof node === "function") return node();
      return buildGroup(node, name !== named ? undefined : listing ? ["--help"] : rest);
    }),
  );
  for (const child of built) command.addCommand(child);
  return command;
}
