/**
 * Whether symlinks stay inside a tree (a package, an unpacked asset). A link escapes when its
 * target is absolute, or when resolving it from the link's directory climbs above the root with
 * `..`. Links are judged as the kernel follows them: through the other links of the tree
 * (`d/s -> .` makes `d/s/..` the root, not `d`), so that a chain of links each harmless on its own
 * cannot lead out either. Paths are archive paths: `/`-separated, relative to the root.
 */

/** What the resolver needs to know about a path of the tree: a link and its target, something else, or nothing (yet). */
export type LinkLookup = (path: string) => { symlink: string } | "other" | undefined;

/** Why a link was refused, or undefined when it stays inside the root. */
export type LinkVerdict = "absolute" | "outside" | "loop" | undefined;

/** Links followed before a resolution counts as a loop, as Linux does. */
const MAX_HOPS = 40;

const segmentsOf = (path: string) => path.split("/").filter((s) => s !== "" && s !== ".");

const noLinks: LinkLookup = () => undefined;

/**
 * Resolves the target of the link at `linkPath` (segments under the root), following every link
 * `lookup` knows on the way, and tells whether it leaves the root. Paths `lookup` does not know
 * are taken as plain directories.
 */
export function judgeSymlink(linkPath: readonly string[], target: string, lookup: LinkLookup): LinkVerdict {
  const result = resolve(linkPath.slice(0, -1), target, lookup, { count: 0 });
  return Array.isArray(result) ? undefined : result;
}

function resolve(
  from: readonly string[],
  target: string,
  lookup: LinkLookup,
  hops: { count: number },
): string[] | Exclude<LinkVerdict, undefined> {
  if (target.startsWith("/")) return "absolute";
  let at = [...from];
  for (const segment of segmentsOf(target)) {
    if (segment === "..") {
      if (at.length === 0) return "outside";
      at.pop();
      continue;
    }
    at.push(segment);
    const found = lookup(at.join("/"));
    if (found === undefined || found === "other") continue;
    if (++hops.count > MAX_HOPS) return "loop";
    const next = resolve(at.slice(0, -1), found.symlink, lookup, hops);
    if (!Array.isArray(next)) return next;
    at = next;
  }
  return at;
}

const leadsOut = (verdict: LinkVerdict) => verdict === "absolute" || verdict === "outside";

/**
 * Whether the link at `name` to `target` leads outside the root, judged by its own text: following
 * no other link. The quick check, made as each link is met.
 */
export function linkLeavesTree(name: string, target: string): boolean {
  return leadsOut(judgeSymlink(segmentsOf(name), target, noLinks));
}

/**
 * The first link of `links` (archive path to target, in the map's order) that leads outside the
 * root once resolved through the others, or undefined. The full check, made once every link is
 * known. A loop reaches nothing, so it stays inside.
 */
export function findEscapingLink(links: ReadonlyMap<string, string>): string | undefined {
  const canonical = new Map([...links].map(([name, target]) => [segmentsOf(name).join("/"), target]));
  const lookup: LinkLookup = (path) => {
    const target = canonical.get(path);
    return target === undefined ? undefined : { symlink: target };
  };
  for (const [name, target] of links)
    if (leadsOut(judgeSymlink(segmentsOf(name), target, lookup))) return name;
  return undefined;
}
