// Packages for the `pkg exec` tests: small trees of shell scripts with metadata, made and pushed
// with the built `pkg` (package create, package push), to a registry or an OCI image layout.
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import { detectHostPlatform } from "../../src/platform/index.js";
import { type TreeSpec, writeTree } from "./bundle-trees.js";
import { runPkg } from "./run-pkg.js";

/** This machine's platform key without a libc, so the index entry resolves on any libc. */
export function hostKey(): string {
  const host = detectHostPlatform();
  return `${host.os}/${host.architecture}`;
}

export interface PushedPackage {
  manifestDigest: string;
  indexDigest: string;
}

/**
 * Creates a bundle of `tree` with `metadata` under `work/<slug>/` and pushes it as `reference`
 * for this machine's platform: to the registry the reference names, or with `layout` into that
 * OCI image layout.
 */
export async function publishPackage(options: {
  work: string;
  reference: string;
  tree: TreeSpec;
  metadata: Record<string, unknown>;
  layout?: string;
  /** More layers, each a tree bundled on its own, pushed after the first. */
  moreLayers?: TreeSpec[];
}): Promise<PushedPackage> {
  const dir = join(options.work, options.reference.replace(/[^a-z0-9]+/gi, "-"));
  const tree = join(dir, "tree");
  await writeTree(tree, options.tree);
  const metadataFile = join(dir, "input-metadata.json");
  await writeFile(metadataFile, JSON.stringify({ type: "bundle", version: 1, ...options.metadata }));
  const bundle = join(dir, "bundle.tar.zst");
  const created = await runPkg(["package", "create", tree, "-o", bundle, "--metadata", metadataFile]);
  expect(created.code, created.stderr).toBe(0);
  const bundles = [bundle];
  for (const [i, layer] of (options.moreLayers ?? []).entries()) {
    const layerTree = join(dir, `tree-${i + 2}`);
    await writeTree(layerTree, layer);
    const layerBundle = join(dir, `layer-${i + 2}.tar.zst`);
    const made = await runPkg(["package", "create", layerTree, "-o", layerBundle]);
    expect(made.code, made.stderr).toBe(0);
    bundles.push(layerBundle);
  }
  const where = options.layout === undefined ? [] : ["--layout", options.layout];
  const pushed = await runPkg([
    "package",
    "push",
    ...where,
    "-i",
    options.reference,
    "-p",
    hostKey(),
    "--metadata",
    join(dir, "metadata.json"),
    "--format",
    "json",
    ...bundles,
  ]);
  expect(pushed.code, pushed.stderr).toBe(0);
  const report = JSON.parse(pushed.stdout) as PushedPackage;
  return { manifestDigest: report.manifestDigest, indexDigest: report.indexDigest };
}

/** A POSIX shell script. */
export const script = (body: string, mode = 0o755): TreeSpec[string] => ({
  kind: "file",
  content: `#!/bin/sh\n${body}\n`,
  mode,
});

/** The names in `dir`, sorted; none when it does not exist. */
export async function namesIn(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [])).sort();
}
