import type { Versions } from "../spec/versions.js";
import { compareVersionTexts } from "./version-order.js";

/**
 * The outstanding versions (in the window, not yet fully published) this run takes, in the order
 * it takes them: `newest_first` (the default) from the newest down, `oldest_first` from the oldest
 * up, at most `new_per_run` of them (all when unset). A `min` that moved downward widens the
 * outstanding set, so older versions become work again, walking toward the new `min`.
 */
export function takeForRun<T extends { version: string }>(
  outstanding: readonly T[],
  versions: Pick<Versions, "new_per_run" | "backfill"> | undefined,
): T[] {
  const ordered = [...outstanding].sort((a, b) => compareVersionTexts(a.version, b.version));
  if ((versions?.backfill ?? "newest_first") === "newest_first") ordered.reverse();
  return versions?.new_per_run === undefined ? ordered : ordered.slice(0, versions.new_per_run);
}
