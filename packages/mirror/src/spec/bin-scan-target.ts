import { posix } from "node:path";
import type { Metadata } from "@pkg/package";

const installPathRooted = /^\$\{installPath\}(?:\/(.*))?$/;

/**
 * The directories `bin_scan` reads, relative to the package root: those of `${installPath}`-rooted
 * path variables whose visibility reaches the interface (any variable, not only PATH). The bare
 * `${installPath}` is no scan target, nor is a path leaving the package.
 */
export function scanDirectories(metadata: Metadata): string[] {
  const dirs = new Set<string>();
  for (const entry of metadata.env ?? []) {
    if (entry.type !== "path" || entry.visibility === "private") continue;
    const rest = installPathRooted.exec(entry.value)?.[1];
    if (rest === undefined) continue;
    const dir = posix.normalize(rest).replace(/\/+$/, "");
    if (dir === "." || dir === "" || dir === ".." || dir.startsWith("../")) continue;
    dirs.add(dir);
  }
  return [...dirs];
}

/** Whether the metadata's PATH is exactly the bare `${installPath}` (the common mistake worth naming). */
export function pathIsBareInstallPath(metadata: Metadata): boolean {
  return (metadata.env ?? []).some(
    (entry) =>
      entry.key === "PATH" && entry.type === "path" && /^\$\{installPath\}\/*\.?\/*$/.test(entry.value),
  );
}
