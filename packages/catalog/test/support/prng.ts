/** A small seeded pseudo-random generator (mulberry32): the same seed gives the same sequence. */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items, in the order of `items`. */
  sample<T>(items: readonly T[], count: number): T[];
}

export function prng(seed: number): Prng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(items.length)] as T,
    sample<T>(items: readonly T[], count: number): T[] {
      const chosen = new Set<number>();
      while (chosen.size < Math.min(count, items.length)) chosen.add(int(items.length));
      return items.filter((_, i) => chosen.has(i));
    },
  };
}
