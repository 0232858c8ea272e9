import { ExitCode, type Logger, PkgError, silentLogger } from "@pkg/common";
import { libcOf, libcOfLoader, type Metadata, parsePlatformKey } from "@pkg/package";
import { readElfInterpreter } from "./elf-file.js";
import { interfaceFiles, interfacePathDirectories } from "./interface-files.js";
import { keyForLibc } from "./loader.js";
import type { BuildSubject } from "./subject.js";

export interface LibcLintOptions extends BuildSubject {
  /** `libc_lint` of the spec (or variant); default true. */
  enabled?: boolean;
  log?: Logger;
}

/**
 * `libc_lint`: on a linux key, every file on the interface PATH whose ELF loader needs a libc the
 * key does not declare fails the build. Static executables, non-ELF files and loaders of no known
 * libc pass; a bare key (no `+libc.`) resolves on every host, so a dynamic glibc or musl executable
 * under it is a false claim. Reads only ELF headers.
 */
export async function lintLibc(
  tree: string,
  metadata: Metadata,
  platformKey: string,
  options: LibcLintOptions,
): Promise<void> {
  const key = parsePlatformKey(platformKey, ExitCode.Data);
  if (key.os !== "linux") return;
  const where = `${options.target} ${options.version} ${key.key}`;
  if (options.enabled === false) {
    (options.log ?? silentLogger).info(
      `libc_lint: false: skipping the libc check of ${options.target} ${key.key}`,
    );
    return;
  }
  const declared = libcOf(key);
  const problems: string[] = [];
  for (const file of await interfaceFiles(tree, interfacePathDirectories(metadata))) {
    const elf = await readElfInterpreter(file.path);
    if (elf.kind !== "dynamic") continue;
    const needs = libcOfLoader(elf.interpreter);
    if (needs === undefined || needs === declared) continue;
    const claim = declared === undefined ? "declares no libc" : `declares libc.${declared}`;
    problems.push(
      `${file.relative} needs ${needs} (loader ${elf.interpreter}) but the key ${claim}; the correct platform key is ${keyForLibc(key, needs)}`,
    );
  }
  if (problems.length === 0) return;
  throw new PkgError(ExitCode.Data, `libc_lint: ${where}: ${problems.join("; ")}`, {
    detail: "LibcMismatch",
  });
}
