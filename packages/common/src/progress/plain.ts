import type { BoardSnapshot } from "./board.js";
import { statusLine } from "./format.js";

/** Status lines in CI: one every 10 s while something runs, so a log of hours stays readable. */
export const PLAIN_INTERVAL_MS = 10_000;

/**
 * Plain progress for CI and pipes: while tasks run, one status line (counts and the running
 * tasks) every `intervalMs`, never more often, and none while nothing runs. The timer never keeps
 * the process alive.
 */
export class PlainDisplay {
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly snapshot: () => BoardSnapshot,
    private readonly write: (line: string) => void,
    private readonly intervalMs = PLAIN_INTERVAL_MS,
  ) {}

  /** Called on every change with the count of running tasks: starts the clock when work begins, stops it when none is left. */
  changed(runningCount: number): void {
    const running = runningCount > 0;
    if (running && this.#timer === undefined) {
      this.#timer = setInterval(() => this.write(statusLine(this.snapshot())), this.intervalMs);
      this.#timer.unref();
    } else if (!running) {
      this.stop();
    }
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
