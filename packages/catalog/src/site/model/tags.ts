import type { TagEntry } from "@pkg/index";
import type { TagGroup } from "./types.js";
import { compareTagsNewestFirst, isVersionTag } from "./versions.js";

/** Groups tags by content digest: tags sharing one image index are aliases of each other.
 *  Groups come newest first by their primary tag. */
export function groupTags(tags: Record<string, TagEntry>): TagGroup[] {
  const byContent = new Map<string, string[]>();
  for (const [tag, entry] of Object.entries(tags)) {
    const names = byContent.get(entry.content);
    if (names) names.push(tag);
    else byContent.set(entry.content, [tag]);
  }
  const groups: TagGroup[] = [];
  for (const [content, names] of byContent) {
    names.sort(compareTagsNewestFirst);
    const [tag, ...aliases] = names as [string, ...string[]];
    const entries = names.map((name) => tags[name] as TagEntry);
    const yankedEntry = entries.find((entry) => entry.yanked);
    const group: TagGroup = {
      tag,
      aliases,
      content,
      observed: entries.map((entry) => entry.observed).reduce((a, b) => (b > a ? b : a)),
      yanked: yankedEntry !== undefined,
    };
    if (yankedEntry?.yanked?.reason) group.yankedReason = yankedEntry.yanked.reason;
    groups.push(group);
  }
  return groups.sort((a, b) => compareTagsNewestFirst(a.tag, b.tag));
}

/** The latest version: the group the `latest` tag points at, else the newest version group that is
 *  not yanked. Undefined when no tag qualifies. */
export function latestGroup(groups: TagGroup[], tags: Record<string, TagEntry>): TagGroup | undefined {
  const latestContent = tags.latest?.content;
  if (latestContent !== undefined) {
    const group = groups.find((g) => g.content === latestContent);
    if (group) return group;
  }
  return groups.find((g) => !g.yanked && isVersionTag(g.tag));
}
