// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata under test
// Packages and helpers for the `pkg package test` tests: bundles made with the built `pkg package
// create` (metadata written beside them), a host directory holding a `tool` of its own, and the
// built bin run with a script on its stdin.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnCollect } from "@pkg/testkit";
import { expect } from "vitest";
import { dir, type TreeSpec, writeTree } from "./bundle-trees.js";
import { script } from "./exec-packages.js";
import { runPkg } from "./run-pkg.js";

const bin = fileURLToPath(new URL("../../bin/pkg.js", import.meta.url));

/** Bundles `tree` with `metadata` into `work/<name>/bundle.tar.zst` (metadata.json beside it). */
export async function makeBundle(
  work: string,
  name: string,
  tree: TreeSpec,
  metadata: Record<string, unknown>,
): Promise<string> {
  const root = join(work, name);
  await writeTree(join(root, "tree"), tree);
  const metadataFile = join(root, "input-metadata.json");
  await writeFile(metadataFile, JSON.stringify({ type: "bundle", version: 1, ...metadata }));
  const bundle = join(root, "out", "bundle.tar.zst");
  const made = await runPkg([
    "package",
    "create",
    join(root, "tree"),
    "-o",
    bundle,
    "--metadata",
    metadataFile,
  ]);
  expect(made.code, made.stderr).toBe(0);
  return bundle;
}

/** A tool package: `bin/tool` prints its arguments and the test variables; an entrypoint; env of each visibility. */
export function toolPackage(work: string): Promise<string> {
  return makeBundle(
    work,
    "tool",
    {
      bin: dir(),
      "bin/tool": script(
        'echo "tool $*"; echo "PKG_VERSION=$PKG_VERSION PKG_PLATFORM=$PKG_PLATFORM PKG_IMAGE=$PKG_IMAGE PKG_TEST_NAME=$PKG_TEST_NAME"; echo "TOOL_HOME=$TOOL_HOME TOOL_SECRET=${TOOL_SECRET:-unset}"; echo "pwd=$(pwd)"; [ -z "$TOOL_FAIL" ] || { echo "failing as asked <&\\"" >&2; exit "$TOOL_FAIL"; }',
      ),
      "share/data.txt": { kind: "file", content: "data of the package\n" },
    },
    {
      env: [
        { key: "PATH", type: "path", value: "${installPath}/bin" },
        { key: "TOOL_HOME", type: "constant", value: "${installPath}" },
        { key: "TOOL_SECRET", type: "constant", value: "s", visibility: "private" },
      ],
      entrypoints: [{ name: "tool-hello", target: "tool", args: ["hello"] }],
    },
  );
}

/** A package whose `bin/tool` is mode 0644: it ships `tool`, but `tool` cannot run. */
export function brokenPackage(work: string): Promise<string> {
  return makeBundle(
    work,
    "broken",
    { "bin/tool": script('echo "packaged tool"', 0o644) },
    { env: [{ key: "PATH", type: "path", value: "${installPath}/bin" }] },
  );
}

/** A directory with an executable `tool` of the host's, to put on PATH. */
export async function hostToolDir(work: string): Promise<string> {
  const hostDir = join(work, "host-bin");
  await writeTree(hostDir, { tool: script('echo "host tool"') });
  return hostDir;
}

/** Runs the built `pkg` with `input` on its stdin (the environment as runPkg gives it, plus `env`). */
export function runPkgWithInput(
  args: string[],
  input: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return spawnCollect(process.execPath, [bin, ...args], {
    env: { ...withoutCredentials(process.env), HOME: "/nonexistent-pkg-test-home", ...env },
    input,
  });
}

function withoutCredentials(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (value !== undefined && !key.startsWith("PKG_AUTH_") && key !== "NETRC" && key !== "DOCKER_CONFIG")
      out[key] = value;
  return out;
}
