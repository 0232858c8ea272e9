import { ExitCode, PkgError } from "@pkg/common";
import { type Metadata, parsePlatformKey } from "@pkg/package";
import type { BinScan } from "../../spec/bin-scan.js";
import { scanDirectories } from "../../spec/bin-scan-target.js";
import { type InterfaceFile, interfaceFiles, interfacePathDirectories } from "./interface-files.js";
import type { BuildSubject } from "./subject.js";

const WINDOWS_EXECUTABLE = /\.(?:exe|com|bat|cmd)$/i;

/** The name a file claims in `binaries`, and whether it counts as executable on the platform. */
interface Candidate {
  claim: string;
  executable: boolean;
  relative: string;
}

/**
 * The executables a package offers: the immediate entries of its interface path directories that
 * are executable on `platform` (exec bit elsewhere; `.exe .com .bat .cmd`, stripped, on Windows).
 * Symlinks count by their own name. Sorted, without duplicates.
 */
export async function scanBinaries(tree: string, metadata: Metadata, platform: string): Promise<string[]> {
  const found = await candidates(tree, scanDirectories(metadata), platform);
  return [...new Set(found.filter((c) => c.executable).map((c) => c.claim))].sort();
}

/**
 * The `binaries` claim under `mode`: `off` keeps the metadata's; `auto` fills an absent claim from
 * the scan; `verify` fills as `auto` and otherwise checks the declared claim, failing with
 * `DeclaredNotExecutable` when an interface executable is not listed or a listed name in an
 * interface PATH directory is not executable.
 */
export async function applyBinScan(
  mode: BinScan,
  tree: string,
  metadata: Metadata,
  platform: string,
  subject: BuildSubject,
): Promise<Metadata> {
  if (mode === "off") return metadata;
  if (metadata.binaries === undefined) {
    const scanned = await scanBinaries(tree, metadata, platform);
    return scanned.length === 0 ? metadata : { ...metadata, binaries: scanned };
  }
  if (mode === "verify") await verifyDeclared(tree, metadata, metadata.binaries, platform, subject);
  return metadata;
}

async function verifyDeclared(
  tree: string,
  metadata: Metadata,
  declared: readonly string[],
  platform: string,
  subject: BuildSubject,
): Promise<void> {
  const listed = new Set(declared);
  const offered = await candidates(tree, scanDirectories(metadata), platform);
  const onPath = await candidates(tree, interfacePathDirectories(metadata), platform);
  const problems = [
    ...onPath
      .filter((c) => listed.has(c.claim) && !c.executable)
      .map((c) => `${c.relative} is listed in binaries as ${JSON.stringify(c.claim)} but is not executable`),
    ...offered
      .filter((c) => c.executable && !listed.has(c.claim))
      .map(
        (c) =>
          `${c.relative} is executable on the interface but ${JSON.stringify(c.claim)} is not listed in binaries`,
      ),
  ];
  if (problems.length === 0) return;
  throw new PkgError(
    ExitCode.Data,
    `bin_scan verify: ${subject.target} ${subject.version} ${platform}: DeclaredNotExecutable: ${problems.join("; ")}`,
    { detail: "DeclaredNotExecutable" },
  );
}

async function candidates(tree: string, dirs: readonly string[], platform: string): Promise<Candidate[]> {
  const windows = parsePlatformKey(platform, ExitCode.Data).os === "windows";
  return (await interfaceFiles(tree, dirs)).map((file) => candidate(file, windows));
}

function candidate(file: InterfaceFile, windows: boolean): Candidate {
  if (!windows)
    return { claim: file.name, executable: (file.stats.mode & 0o111) !== 0, relative: file.relative };
  const stripped = file.name.replace(WINDOWS_EXECUTABLE, "");
  const executable = stripped !== file.name && stripped !== "";
  return { claim: stripped === "" ? file.name : stripped, executable, relative: file.relative };
}
