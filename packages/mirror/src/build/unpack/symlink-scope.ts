/** What the resolver needs to know about an extracted path. */
export type LinkLookup = (path: string) => { symlink: string } | "other" | undefined;

/** Links followed before a resolution counts as a loop, as Linux does. */
const MAX_HOPS = 40;

/** Why a symlink target was refused, or undefined when it stays inside the root. */
export type LinkVerdict = "absolute" | "outside" | "loop" | undefined;

/**
 * Resolves the target of the symlink at `linkPath` (segments under the extraction root), following
 * every symlink already known on the way as the kernel would, and tells whether it leaves the root.
 * Walking the path itself matters: `a -> .` then `b -> a/../x` looks inside by text alone but
 * leaves the root once `a` is followed. Paths not extracted (yet) are taken as plain directories.
 */
export function judgeSymlink(linkPath: readonly string[], target: string, lookup: LinkLookup): LinkVerdict {
  const hops = { count: 0 };
  const result = resolve(linkPath.slice(0, -1), target, lookup, hops);
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
  for (const segment of target.split("/")) {
    if (segment === "" || segment === ".") continue;
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
