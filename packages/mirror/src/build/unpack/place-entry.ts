import { dataError } from "@pkg/common";
import {
  archivePathSegments,
  type Extraction,
  extractEntry,
  judgeSymlink,
  type LinkLookup,
  type LinkVerdict,
} from "@pkg/package/bundle";
import type { Header } from "tar-stream";
import type { UnpackBudget } from "./limits.js";

/** One archive being unpacked into a fresh directory. */
export interface Placement {
  strip: number;
  budget: UnpackBudget;
  extraction: Extraction;
  /** Relative path (after stripping) to the target of every symlink placed. */
  links: Map<string, string>;
}

const refusals: Record<Exclude<LinkVerdict, undefined>, string> = {
  absolute: "points to an absolute path",
  outside: "points outside the destination",
  loop: "is part of a symlink loop",
};

function lookupIn(placement: Placement): LinkLookup {
  return (path) => {
    const target = placement.links.get(path);
    if (target !== undefined) return { symlink: target };
    return placement.extraction.record.kindOf(path) ? "other" : undefined;
  };
}

function checkSymlink(placement: Placement, name: string, segments: string[], target: string): void {
  const verdict = judgeSymlink(segments, target, lookupIn(placement));
  if (verdict)
    throw dataError(
      `archive entry ${JSON.stringify(name)} is a symlink that ${refusals[verdict]} (${target})`,
    );
}

async function drain(body: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of body);
}

/** A name as a message shows it: bare when plain printable ASCII, else quoted with its escapes. */
function shown(name: string): string {
  return /^[\x21-\x7e]+$/.test(name) ? name : JSON.stringify(name);
}

/** Whether a relative archive path climbs above the archive's root with `..`. */
function climbsOut(path: string): boolean {
  let depth = 0;
  for (const segment of path.split("/")) {
    if (segment === "..") depth--;
    else if (segment !== "" && segment !== ".") depth++;
    if (depth < 0) return true;
  }
  return false;
}

/**
 * The path of a hard link's target after stripping, which must survive the stripping too. A
 * target that is absolute or climbs out is refused naming the entry and its target (the target
 * is not an entry of its own).
 */
function strippedLinkTarget(header: Header, strip: number): string {
  const linkname = header.linkname ?? "";
  if (linkname.startsWith("/") || climbsOut(linkname)) {
    throw dataError(`hard link ${shown(header.name)} -> ${shown(linkname)} points outside the archive`);
  }
  const segments = archivePathSegments(linkname);
  if (segments.length <= strip) {
    throw dataError(
      `archive entry ${JSON.stringify(header.name)} is a hard link to ${JSON.stringify(linkname)}, which strip_components drops`,
    );
  }
  return segments.slice(strip).join("/");
}

/**
 * Places one archive entry: counted against the limits, its leading components stripped (an entry
 * with no more than `strip` components is dropped, as GNU tar does), symlinks leaving the
 * destination refused, then written by the bundle extractor, which refuses every other escape.
 */
export async function placeEntry(
  header: Header,
  body: AsyncIterable<unknown>,
  placement: Placement,
): Promise<void> {
  placement.budget.takeEntry();
  const segments = archivePathSegments(header.name);
  if (segments.length <= placement.strip) {
    await drain(body);
    return;
  }
  const stripped = segments.slice(placement.strip);
  const placed: Header = { ...header, name: stripped.join("/") };
  if (header.type === "link") placed.linkname = strippedLinkTarget(header, placement.strip);
  if (header.type === "symlink") checkSymlink(placement, header.name, stripped, header.linkname ?? "");
  await extractEntry(placed, body, placement.extraction);
  if (header.type === "symlink") placement.links.set(placed.name, header.linkname ?? "");
}

/**
 * Judges every symlink again once all entries are in place: one may resolve through a link that
 * the archive held only after it.
 */
export function recheckSymlinks(placement: Placement): void {
  for (const [path, target] of placement.links) checkSymlink(placement, path, path.split("/"), target);
}
