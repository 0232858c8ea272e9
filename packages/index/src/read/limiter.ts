/** Runs at most `max` tasks at once; the others wait in order. */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function createLimiter(max: number): Limiter {
  let active = 0;
  // A queue with a moving head: Array#shift is linear on the tens of thousands of waiting reads.
  let waiting: (() => void)[] = [];
  let head = 0;
  const next = (): void => {
    if (active >= max || head >= waiting.length) return;
    const start = waiting[head++] as () => void;
    if (head > 1024 && head * 2 > waiting.length) {
      waiting = waiting.slice(head);
      head = 0;
    }
    active++;
    start();
  };
  return <T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => {
        task()
          .then(resolve, reject)
          .finally(() => {
            active--;
            next();
          });
      });
      next();
    });
}
