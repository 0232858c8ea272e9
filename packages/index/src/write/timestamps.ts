/** `YYYY-MM-DDThh:mm:ssZ`: the one fixed-width shape of every time in a root (`observed`,
 *  `yanked.at`), so that string order is time order. */
export function observedTimestamp(at: Date): string {
  const iso = at.toISOString();
  if (!/^\d{4}-/.test(iso)) throw new RangeError(`${iso} has no four-digit year`);
  return `${iso.slice(0, 19)}Z`;
}

/** `YYYY-MM-DD` (UTC): a root's `created`. */
export function createdDate(at: Date): string {
  return observedTimestamp(at).slice(0, 10);
}
