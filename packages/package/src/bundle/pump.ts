import type { Writable } from "node:stream";
import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Writes every chunk into `sink`, with at most `maxInFlight` chunks written but not yet consumed.
 * A synchronous transform accepts every write at once, so its write() return value alone bounds
 * nothing; counting the write callbacks does. `release` gets each chunk back once `sink` has
 * consumed it, so that its buffer can be reused.
 */
export async function pump(
  chunks: Iterable<Buffer>,
  sink: Writable,
  release: (chunk: Buffer) => void,
  maxInFlight: number,
): Promise<void> {
  let outstanding = 0;
  let wake: (() => void) | undefined;
  let stop: (error: Error) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => {
    stop = reject;
  });
  stopped.catch(() => undefined);
  const onError = (error: Error) => stop(error);
  const onClose = () => stop(new Error("the stream closed before all data was written"));
  sink.on("error", onError);
  sink.on("close", onClose);
  try {
    for (const chunk of chunks) {
      if (sink.destroyed) throw new Error("the stream was destroyed before all data was written");
      outstanding++;
      sink.write(chunk, () => {
        outstanding--;
        release(chunk);
        wake?.();
      });
      // a turn of the event loop lets file writes and their callbacks progress between chunks
      await Promise.race([nextTurn(), stopped]);
      while (outstanding >= maxInFlight) {
        await Promise.race([new Promise<void>((resolve) => (wake = resolve)), stopped]);
      }
    }
  } finally {
    sink.off("error", onError);
    sink.off("close", onClose);
  }
}
