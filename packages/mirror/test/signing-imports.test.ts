import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mirrorBin } from "./support/sync-run.js";

/**
 * The signing libraries take a fifth of a second to load: the commands that publish load them
 * only when the spec has `sign`. A resolve hook (given to the bin through NODE_OPTIONS) reports
 * every import of a sigstore package on stderr.
 */
let dir: TempDir;
let hook: string;

beforeAll(async () => {
  dir = await tempDir("pkg-mirror-signing-imports-");
  const resolver = join(dir.path, "resolve.mjs");
  await writeFile(
    resolver,
    `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@sigstore/")) process.stderr.write("SIGSTORE " + specifier + "\\n");
  return next(specifier, context);
}
`,
  );
  hook = join(dir.path, "register.mjs");
  await writeFile(
    hook,
    `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(resolver).href)});\n`,
  );
});

afterAll(async () => {
  await dir?.remove();
});

const sigstoreImports = async (args: string[]) => {
  const result = await runCli(mirrorBin, args, {
    env: { NODE_OPTIONS: `--import=${pathToFileURL(hook).href}` },
  });
  expect(result.code, result.stderr).toBe(0);
  return result.stderr.split("\n").filter((line) => line.startsWith("SIGSTORE "));
};

describe("pkg-mirror's publishing commands without sign", () => {
  it.each([
    [["package", "pipeline", "push", "--help"]],
    [["package", "pipeline", "run", "--help"]],
    [["package", "sync", "--help"]],
  ])("%j imports no signing library", async (args) => {
    expect(await sigstoreImports(args)).toEqual([]);
  });

  it("pipeline sign does (the hook sees them)", async () => {
    expect(await sigstoreImports(["package", "pipeline", "sign", "--help"])).not.toEqual([]);
  });
});
