import type { MirrorSpec } from "./mirror-spec.js";

/** One line about a loaded spec: what is mirrored from where to where, for how many platforms. */
export function summarize(spec: MirrorSpec): string {
  const target = spec.target ? `${spec.target.registry}/${spec.target.repository}` : "?";
  const source = spec.source?.type ?? "?";
  const platforms = new Set<string>();
  for (const key of Object.keys(spec.assets ?? {})) platforms.add(key);
  for (const variant of spec.variants ?? [])
    for (const key of Object.keys(variant.assets ?? {})) platforms.add(key);
  for (const key of Object.keys(spec.wheels ?? {})) platforms.add(key);
  const count = platforms.size;
  return `${spec.name ?? "?"} from ${source} to ${target}, ${count} platform${count === 1 ? "" : "s"}`;
}
