/** Runs `task` over every item with at most `limit` running at once; the first failure rejects after
 *  the running tasks settle. */
export async function forEachBounded<T>(
  items: Iterable<T>,
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  try {
    for (const item of items) {
      const run: Promise<void> = task(item).finally(() => {
        running.delete(run);
      });
      running.add(run);
      if (running.size >= limit) await Promise.race(running);
    }
    await Promise.all(running);
  } finally {
    await Promise.allSettled(running);
  }
}
