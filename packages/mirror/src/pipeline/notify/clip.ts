/**
 * Fitting text into the chat service's caps. Lengths count UTF-16 code units (JavaScript's
 * `length`), never fewer than the characters the service counts, so a clipped text is always
 * accepted.
 */

const ELLIPSIS = "…";

/** The text cut to at most `max` code units, a surrogate pair never split, `…` marking a cut. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - ELLIPSIS.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}${ELLIPSIS}`;
}

/**
 * Lines joined by newlines within `max` code units, cut at a line boundary: the lines that fit
 * are kept whole and a last line says how many were left out. A first line alone longer than the
 * cap is itself clipped.
 */
export function clipLines(lines: readonly string[], max: number): string {
  const all = lines.join("\n");
  if (all.length <= max) return all;
  const kept: string[] = [];
  let used = 0;
  for (const [i, line] of lines.entries()) {
    const more = moreLine(lines.length - i - 1);
    const withMore = used + (kept.length > 0 ? 1 : 0) + line.length + 1 + more.length;
    // keep the line if it still leaves room for the note about the rest
    if (withMore > max) {
      if (kept.length === 0) {
        if (lines.length === 1) return clipText(line, max);
        const note = moreLine(lines.length - 1);
        return `${clipText(line, Math.max(1, max - note.length - 1))}\n${note}`;
      }
      kept.push(moreLine(lines.length - i));
      return kept.join("\n");
    }
    kept.push(line);
    used += (kept.length > 1 ? 1 : 0) + line.length;
  }
  return kept.join("\n");
}

function moreLine(count: number): string {
  return `… and ${count} more`;
}
