/**
 * Whether symlinks stay inside the package tree. A link escapes when its target is absolute, or
 * when resolving it from the link's directory climbs above the root with `..`. Links are judged
 * as the kernel follows them: through the other links of the tree (`d/s -> .` makes `d/s/..`
 * the root, not `d`), so that a chain of links each harmless on its own cannot lead out either.
 * Paths are archive paths: `/`-separated, relative to the root, naming no symlink as a parent.
 */

/** Links followed while resolving one; past it the kernel gives up (ELOOP), so nothing is reached. */
const MAX_HOPS = 64;

const segmentsOf = (path: string) => path.split("/").filter((s) => s !== "" && s !== ".");

/**
 * Whether the link at `name` to `target` leads outside the root, judged by its own text: following
 * no other link. The quick check, made as each link is met.
 */
export function linkLeavesTree(name: string, target: string): boolean {
  return leads(new Map(), name, target) === "outside";
}

/**
 * The first link of `links` (archive path to target, in the map's order) that leads outside the
 * root once resolved through the others, or undefined. The full check, made once every link is known.
 */
export function findEscapingLink(links: ReadonlyMap<string, string>): string | undefined {
  for (const [name, target] of links) if (leads(links, name, target) === "outside") return name;
  return undefined;
}

function leads(links: ReadonlyMap<string, string>, name: string, target: string): "inside" | "outside" {
  if (target.startsWith("/")) return "outside";
  const at = segmentsOf(name).slice(0, -1);
  const pending = segmentsOf(target);
  let hops = 0;
  for (let segment = pending.shift(); segment !== undefined; segment = pending.shift()) {
    if (segment === "..") {
      if (at.length === 0) return "outside";
      at.pop();
      continue;
    }
    const next = links.get([...at, segment].join("/"));
    if (next === undefined) {
      at.push(segment);
      continue;
    }
    // a link met on the way: go on from its target, relative to the directory that holds it
    if (++hops > MAX_HOPS) return "inside";
    if (next.startsWith("/")) return "outside";
    pending.unshift(...segmentsOf(next));
  }
  return "inside";
}
