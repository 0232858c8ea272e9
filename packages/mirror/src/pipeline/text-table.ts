/** Rows as columns padded to their widest cell, two spaces apart, without trailing spaces. */
export function alignTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((cells) => cells[i]?.length ?? 0))) ?? [];
  return rows.map((cells) =>
    cells
      .map((text, i) => text.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd(),
  );
}
