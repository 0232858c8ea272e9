import type { PairColumn, PairRow } from "../../plan/pairs.js";
import { versionKey } from "../../plan/record-tags.js";

/** Cells that leave a version not whole: a wanted platform not published, or not publishable as planned. */
const NOT_WHOLE = new Set(["missing", "new", "ambiguous"]);

/**
 * The versions of the plan's window that are not whole, by exact tag (`1.1.0`, `edge-1.1.0`),
 * for the cascade repair to leave out of the fold: per variant, a version with any cell of that
 * variant's columns `missing`, `new` or `ambiguous`. Such a version got its primary tag only (a
 * push never gives a partial version rolling tags), so the repair must not give it any either.
 * Versions outside the window are not judged here: they stay in the fold as published. A version
 * whose exact tag the repository holds (`tags`) was whole when a push wrote it: a platform the
 * spec added since makes it `missing`, not partial, and it keeps its rolling tags until a push
 * completes it.
 */
export function incompleteVersions(
  rows: readonly PairRow[],
  columns: readonly PairColumn[],
  tags: ReadonlySet<string>,
): Set<string> {
  const incomplete = new Set<string>();
  for (const row of rows) {
    const key = versionKey(row.version);
    if (key === undefined) continue;
    for (const column of columns) {
      const cell = row.cells[column.id];
      if (cell === undefined || !NOT_WHOLE.has(cell.state)) continue;
      const { variant } = column.set;
      const exact = variant === undefined ? key : `${variant}-${key}`;
      if (!tags.has(exact)) incomplete.add(exact);
    }
  }
  return incomplete;
}
