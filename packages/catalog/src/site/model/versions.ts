/** Ordering of tag names as versions: `1.2.3` outranks `1.2` and `1`, numbers compare numerically,
 *  and at equal numbers a plain version outranks one with a suffix (`1.2.3` before `1.2.3_20260801`). */
interface VersionKey {
  numbers: number[];
  suffix: string;
}

function versionKey(tag: string): VersionKey | undefined {
  const match = /^v?(\d+(?:\.\d+)*)(.*)$/.exec(tag);
  if (!match?.[1]) return undefined;
  return { numbers: match[1].split(".").map(Number), suffix: match[2] ?? "" };
}

/** Negative when `a` ranks before (is newer or more specific than) `b`. Non-versions rank last, by name. */
export function compareTagsNewestFirst(a: string, b: string): number {
  const ka = versionKey(a);
  const kb = versionKey(b);
  if (!ka || !kb) {
    if (ka) return -1;
    if (kb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const length = Math.max(ka.numbers.length, kb.numbers.length);
  for (let i = 0; i < length; i++) {
    const na = ka.numbers[i];
    const nb = kb.numbers[i];
    if (na === undefined) return 1;
    if (nb === undefined) return -1;
    if (na !== nb) return nb - na;
  }
  if (ka.suffix === kb.suffix) return 0;
  if (ka.suffix === "") return -1;
  if (kb.suffix === "") return 1;
  return ka.suffix < kb.suffix ? 1 : -1;
}

export function isVersionTag(tag: string): boolean {
  return versionKey(tag) !== undefined;
}
