import { randomBytes } from "node:crypto";
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { processAlive } from "@pkg/common";

/** The directories a build of `out` works in beside it: the new site (`tmp`), the previous one
 *  set aside while they swap (`old`), the changed files of an update in place (`stage`). */
export type SiblingKind = "tmp" | "old" | "stage";

/** `<out>.<kind>-<pid>-<12 hex>`: the process that made it, and a name no other build takes. */
export function siblingDir(out: string, kind: SiblingKind, suffix = randomBytes(6).toString("hex")): string {
  return `${out}.${kind}-${process.pid}-${suffix}`;
}

const siblingPattern = /^(.+)\.(?:tmp|old|stage)-(?:(\d+)-)?[0-9a-f]{12}$/;

/**
 * Removes the sibling directories of `out` that a stopped build left behind (killed, or its machine
 * restarted): named as `siblingDir` names them (or without the process, as earlier builds did),
 * last changed before `before` (the start of this build), and made by a process that is gone. A
 * build still running beside this one keeps its own. Returns the directories removed.
 */
export function sweepStaleSiblings(out: string, before: number): string[] {
  const parent = dirname(out);
  const name = basename(out);
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const match = siblingPattern.exec(entry);
    if (match?.[1] !== name) continue;
    const pid = match[2] === undefined ? undefined : Number(match[2]);
    if (pid !== undefined && processAlive(pid)) continue;
    const path = join(parent, entry);
    try {
      // a directory itself, never a link to one
      const stats = lstatSync(path, { throwIfNoEntry: false });
      if (stats === undefined || !stats.isDirectory() || stats.mtimeMs >= before) continue;
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // another build removed it meanwhile, or it cannot be removed: left as it is
    }
  }
  return removed;
}
