import { resolve } from "node:path";
import type { PlanTest } from "../documents/plan-document.js";

export interface PackageTestInput {
  /** Paths as the process running `pkg` sees them (the workspace is mounted at the same path): the
   *  bundle, or an environment package's layers in order. */
  bundles: readonly string[];
  metadata: string;
  /** Full platform key (`+libc.*` kept). */
  platform: string;
  pkgVersion: string;
  /** The container image (PKG_IMAGE); absent on a native leg. */
  image?: string;
  junit: string;
  suite: string;
  properties: ReadonlyArray<{ name: string; value: string }>;
  test: PlanTest;
  /** The leg's shell: a `command` runs as `<prefix...> <shell> -c <command>`. */
  shell: string;
  prefix: readonly string[];
  /** A `script` resolves from here. */
  repoRoot: string;
}

/** One `pkg package test` invocation: its arguments after `pkg`, and its stdin (`script_inline`). */
export interface PackageTestInvocation {
  args: string[];
  stdin?: string;
}

/** The `pkg package test` call of one test of one entry, writing its case into the leg's JUnit file. */
export function packageTestInvocation(input: PackageTestInput): PackageTestInvocation {
  const { test } = input;
  const args = [
    "package",
    "test",
    ...input.bundles,
    "-m",
    input.metadata,
    "--platform",
    input.platform,
    "--pkg-version",
    input.pkgVersion,
    ...(input.image === undefined ? [] : ["--image", input.image]),
    "--junit",
    input.junit,
    "--junit-name",
    test.name,
    "--junit-suite",
    input.suite,
    ...input.properties.flatMap((p) => ["--junit-property", `${p.name}=${p.value}`]),
  ];
  if ("command" in test) return { args: [...args, "--", ...input.prefix, input.shell, "-c", test.command] };
  if ("script" in test) return { args: [...args, "--script", resolve(input.repoRoot, test.script)] };
  return { args: [...args, "--script", "-"], stdin: test.script_inline };
}
