import { Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import { describe, expect, it } from "vitest";
import { buildFullTree, buildLazyTree, type LazyGroup } from "./lazy-commands.js";

/** A tree whose loaders record what they built: what a command line imports. */
function recordingTree() {
  const loaded: string[] = [];
  const leaf = (name: string) => async (): Promise<CommandUnknownOpts> => {
    loaded.push(name);
    return new Command(name).description(`the ${name} command`);
  };
  const tree: LazyGroup = {
    command: () => new Command("tool"),
    children: {
      package: {
        command: () => new Command("package"),
        children: {
          push: leaf("push"),
          pull: leaf("pull"),
          pipeline: {
            command: () => new Command("pipeline"),
            children: { plan: leaf("plan"), run: leaf("run") },
          },
        },
      },
      exec: leaf("exec"),
    },
  };
  return { tree, loaded };
}

const names = (command: CommandUnknownOpts): string[] => command.commands.map((c) => c.name());

describe("buildLazyTree", () => {
  it.each([
    [[], ["exec"]],
    [["--help"], ["exec"]],
    [["exec", "tool:1", "--", "push"], ["exec"]],
    [["package", "push", "-i", "x"], ["push"]],
    [["package", "pipeline", "plan", "spec.yml"], ["plan"]],
    [
      ["package", "--help"],
      ["push", "pull"],
    ],
    [["package"], ["push", "pull"]],
    [
      ["package", "pusj"],
      ["push", "pull"],
    ],
    [
      ["help", "package"],
      ["push", "pull"],
    ],
    [["package", "help", "push"], ["push"]],
    [
      ["package", "pipeline", "--help"],
      ["plan", "run"],
    ],
    [
      ["package", "help", "pipeline"],
      ["plan", "run"],
    ],
  ])("%j loads %j", async (args, expected) => {
    const { tree, loaded } = recordingTree();
    await buildLazyTree(tree, args);
    expect(loaded.sort()).toEqual([...expected].sort());
  });

  it("keeps the declared order of the children it builds", async () => {
    const { tree } = recordingTree();
    const program = await buildLazyTree(tree, ["package", "--help"]);
    expect(names(program)).toEqual(["package"]);
    expect(names(program.commands[0] as CommandUnknownOpts)).toEqual(["push", "pull", "pipeline"]);
  });

  it("buildFullTree builds every command of every group", async () => {
    const { tree, loaded } = recordingTree();
    const program = await buildFullTree(tree);
    expect(loaded.sort()).toEqual(["exec", "plan", "pull", "push", "run"]);
    expect(names(program)).toEqual(["package", "exec"]);
  });

  it("runs the action of a command reached through the tree", async () => {
    const ran: string[] = [];
    const tree: LazyGroup = {
      command: () => new Command("tool").exitOverride(),
      children: {
        go: async () =>
          new Command("go").argument("<what>").action((what: string) => {
            ran.push(what);
          }),
      },
    };
    const program = await buildLazyTree(tree, ["go", "home"]);
    await program.parseAsync(["node", "tool", "go", "home"]);
    expect(ran).toEqual(["home"]);
  });
});
