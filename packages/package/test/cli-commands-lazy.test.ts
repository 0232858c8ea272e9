import { describe, expect, it } from "vitest";
import { runPkg } from "./support/run-pkg.js";

// Each subcommand's module is imported only when the command line reaches it: every way of asking
// for a listing or a command's help still shows all of them, and a command reached runs.
const packageCommands = [
  "create",
  "push",
  "describe",
  "pull",
  "tags",
  "test",
  "announce",
  "sign",
  "verify",
  "cascade",
];

const listed = (help: string): string[] =>
  [...help.matchAll(/^ {2}(\w+)/gm)].map((m) => m[1] as string).filter((name) => name !== "help");

describe("pkg command tree, loaded on demand", () => {
  it("pkg --help lists package and exec", async () => {
    const result = await runPkg(["--help"]);
    expect(result.code).toBe(0);
    expect(listed(result.stdout.split("Commands:")[1] ?? "")).toEqual(["package", "exec"]);
    expect(result.stdout).toMatch(/exec \[options\] <reference> \[command\.\.\.\]/);
  });

  it.each([[["package", "--help"]], [["help", "package"]], [["package", "--help", "push"]]])(
    "pkg %j lists every package subcommand",
    async (args) => {
      const result = await runPkg(args);
      expect(result.code).toBe(0);
      expect(listed(result.stdout.split("Commands:")[1] ?? "")).toEqual(packageCommands);
    },
  );

  it("a misspelt subcommand gets the suggestion that needs its siblings", async () => {
    const result = await runPkg(["package", "pusj"]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("(Did you mean push?)");
  });

  it("pkg package help push shows push's own help", async () => {
    const result = await runPkg(["package", "help", "push"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: pkg package push \[options\] <layers\.\.\.>/);
  });

  it("a command reached through the tree runs its action (and its usage errors are exit 64)", async () => {
    const result = await runPkg([
      "package",
      "push",
      "-i",
      `localhost:1/a/b@sha256:${"0".repeat(64)}`,
      "-p",
      "linux/amd64",
      "x.tar.zst",
    ]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("name a tag");
  });
});
