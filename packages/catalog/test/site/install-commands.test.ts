import type { Command } from "@commander-js/extra-typings";
import { parseReference } from "@pkg/oci";
import { describe, expect, it } from "vitest";
// the `pkg` CLI's own program, read from the package tool's sources: the catalog does not depend on
// the package tool (its users install it alone), only this test holds the two in step
import { buildFullProgram } from "../../../package/src/cli/program.js";
import { installCommands, pkgHasExec, registryRepository } from "../../src/site/model/install-commands.js";
import { buildSiteModel } from "../../src/site/model/site-model.js";
import type { PackageView } from "../../src/site/model/types.js";
import { readSources } from "../../src/sources/read-sources.js";
import { ocxIndexFixture } from "../support/catalog-project.js";
import { catalogConfig, loadedIndex, loadedPackage } from "../support/model-fixtures.js";

/** Any command of the tree, as commander types it without knowing its options. */
type AnyCommand = Command<unknown[], Record<string, unknown>, Record<string, unknown>>;

/**
 * The `pkg` program set to parse without running anything: no command exits the process or prints,
 * and every leaf command's action only records its own path and arguments.
 */
async function parsingProgram(): Promise<{
  program: AnyCommand;
  parsed: { path: string; args: unknown[] }[];
}> {
  const program = (await buildFullProgram()) as unknown as AnyCommand;
  const parsed: { path: string; args: unknown[] }[] = [];
  const prepare = (command: AnyCommand, path: string[]): void => {
    command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    const children = command.commands as AnyCommand[];
    if (children.length === 0)
      command.action((...args: unknown[]) => {
        parsed.push({ path: path.join(" "), args });
      });
    for (const child of children) prepare(child, [...path, child.name()]);
  };
  prepare(program, []);
  return { program, parsed };
}

/** The words of a shown command, after `pkg`. */
function argvOf(command: string): string[] {
  const [tool, ...argv] = command.split(" ");
  expect(tool).toBe("pkg");
  return argv;
}

const fixturePackages = async (): Promise<PackageView[]> => {
  const config = catalogConfig([{ path: ocxIndexFixture, root: true }]);
  const warn = () => {};
  const model = buildSiteModel(config, await readSources(config, { warn }), warn);
  return model.indexes.flatMap((index) => index.packages);
};

/** A package view of one version in a well-formed repository. */
function viewOf(repository: string, latest = "1.0"): PackageView {
  const pkg = loadedPackage("x", "a/b", {
    tags: { [latest]: { content: "sha256:1", observed: "2026-01-01" } },
  });
  pkg.root.repository = repository;
  const model = buildSiteModel(catalogConfig([{ root: true }]), [loadedIndex("x", 0, [pkg])], () => {});
  const [view] = model.indexes[0]?.packages ?? [];
  if (!view) throw new Error("no package view");
  return view;
}

const bunLike = viewOf("oci://r.example/a/b");

describe("the install block's commands", () => {
  it("shows pkg exec exactly when the pkg program has an exec command", async () => {
    const commands = ((await buildFullProgram()) as unknown as AnyCommand).commands.map((c) => c.name());
    expect(pkgHasExec).toBe(commands.includes("exec"));
  });

  it("are each taken by the pkg CLI's parser, for every package of the fixture index", async () => {
    const packages = await fixturePackages();
    expect(packages.length).toBeGreaterThan(50);
    for (const pkg of packages) {
      const shown = installCommands(pkg);
      expect(shown.length, pkg.name).toBe(pkgHasExec ? 2 : 1);
      for (const { command } of shown) {
        const { program, parsed } = await parsingProgram();
        // a rejected command throws a CommanderError here
        program.parse(argvOf(command), { from: "user" });
        expect(parsed.length, command).toBe(1);
        const [run] = parsed;
        if (run?.path === "package pull" || run?.path === "exec") {
          // the reference the action would open, checked by the parser pull uses
          const reference = parseReference(String(run.args[0]));
          expect(`oci://${reference.registry}/${reference.repository}`).toBe(pkg.repository);
          expect(reference.tag).toBe(pkg.latest);
        }
      }
    }
  });

  it("would be rejected by the parser if they were wrong: the check bites", async () => {
    const { program } = await parsingProgram();
    expect(() => program.parse(["package", "pull", "ghcr.io/a/b:1"], { from: "user" })).toThrow(/output/);
    const fresh = (await parsingProgram()).program;
    expect(() => fresh.parse(["exec-nothing"], { from: "user" })).toThrow();
    // while pkg has no exec command, the exec line is exactly what the parser refuses
    const exec = installCommands(bunLike, true)[0]?.command ?? "";
    expect(exec).toMatch(/^pkg exec /);
    const another = (await parsingProgram()).program;
    if (!pkgHasExec) expect(() => another.parse(argvOf(exec), { from: "user" })).toThrow(/unknown command/);
  });

  it("pull the latest version into a directory named after the repository", async () => {
    const bun = (await fixturePackages()).find((p) => p.name === "ocx.sh/oven-sh/bun");
    expect(installCommands(bun as PackageView, false)).toEqual([
      {
        lead: `Pull version ${bun?.latest} for this machine into ./bun with pkg:`,
        command: `pkg package pull ghcr.io/ocx-contrib/oven-sh/bun:${bun?.latest} -o bun`,
      },
    ]);
    expect(installCommands(bun as PackageView, true)[0]?.command).toBe(
      `pkg exec ghcr.io/ocx-contrib/oven-sh/bun:${bun?.latest}`,
    );
  });

  it("show nothing an index's odd text would turn into another shell command", () => {
    expect(installCommands(viewOf("oci://r.example/a/b")).map((c) => c.command)).toEqual([
      ...(pkgHasExec ? ["pkg exec r.example/a/b:1.0"] : []),
      "pkg package pull r.example/a/b:1.0 -o b",
    ]);
    for (const repository of [
      "oci://r.example/a/b;rm -rf ~",
      "oci://r.example/a/$(id)",
      "oci://r.example/A/B",
      "https://r.example/a/b",
      "oci://noregistry/a",
      "oci://r.example/",
    ])
      expect(installCommands(viewOf(repository)), repository).toEqual([]);
    const oddTag = viewOf("oci://r.example/a/b", "1.0;id");
    expect(oddTag.latest).toBe("1.0;id");
    expect(installCommands(oddTag)).toEqual([]);
    expect(registryRepository("oci://localhost:5000/tools/hello")).toBe("localhost:5000/tools/hello");
  });
});
