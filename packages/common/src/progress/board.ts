/**
 * The state of a command's long work, apart from how it is shown: how many tasks there are, which
 * are running (each with its state and, for transfers, bytes and rate), and how many ended well or
 * failed. A display reads `snapshot()`; it is told when a task ends through `onEnd`.
 */

/** One running piece of work (a pair to build, a layer to push, a download), as the caller sees it. */
export interface TaskProgress {
  /** What it is doing now: "downloading", "unpacking", "bundling", "pushing". */
  state(state: string): void;
  /** Bytes moved so far in the current state, and how many there are when known. */
  bytes(done: number, total?: number): void;
  /** It finished; `note` says how ("published 1.2.0", "reused"). */
  done(note?: string): void;
  /** It failed; `reason` is its one-line error. */
  failed(reason: string): void;
  /** The run stopped it (interrupt, `--fail-fast`): neither done nor failed. */
  stopped(): void;
}

/** Where a command's tasks are counted: `expect` raises the total, `start` begins one. */
export interface TaskBoard {
  expect(count: number): void;
  /** `quiet`: its end leaves no line (a command's one task, whose end the command reports itself). */
  start(name: string, options?: { quiet?: boolean }): TaskProgress;
}

export interface RunningTask {
  name: string;
  state: string;
  bytesDone?: number;
  bytesTotal?: number;
  /** Bytes per second over the last few seconds of this state; undefined until measurable. */
  rate?: number;
  startedAt: number;
}

export interface BoardSnapshot {
  /** Tasks expected (at least those started). */
  total: number;
  done: number;
  failed: number;
  running: RunningTask[];
}

export interface TaskEnd {
  name: string;
  /** The task asked to end without a line. */
  quiet: boolean;
  outcome: "done" | "failed" | "stopped";
  /** The note of a finished task, the reason of a failed one. */
  detail?: string;
  seconds: number;
}

/** How far back the rate looks: long enough to smooth bursts, short enough to follow a stall. */
const RATE_WINDOW_MS = 3000;
const SAMPLE_EVERY_MS = 100;

interface Sample {
  at: number;
  bytes: number;
}

class Task implements TaskProgress {
  activity = "starting";
  bytesDone: number | undefined;
  bytesTotal: number | undefined;
  samples: Sample[] = [];
  ended = false;
  readonly startedAt: number;

  constructor(
    readonly name: string,
    readonly quiet: boolean,
    private readonly board: ProgressBoard,
  ) {
    this.startedAt = board.now();
  }

  state(state: string): void {
    if (this.ended) return;
    this.activity = state;
    this.bytesDone = undefined;
    this.bytesTotal = undefined;
    this.samples = [];
    this.board.changed();
  }

  bytes(done: number, total?: number): void {
    if (this.ended) return;
    const at = this.board.now();
    this.bytesDone = done;
    this.bytesTotal = total;
    // one sample per tenth of a second at most: a fast transfer reports every chunk, and the
    // window must stay a few dozen samples, not thousands
    const last = this.samples.at(-1);
    if (last === undefined || at - last.at >= SAMPLE_EVERY_MS) {
      this.samples.push({ at, bytes: done });
      while (this.samples.length > 2 && at - (this.samples[1] as Sample).at > RATE_WINDOW_MS)
        this.samples.shift();
    }
    this.board.changed();
  }

  rate(): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (first === undefined || last === undefined || last.at - first.at < 250) return undefined;
    return ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
  }

  done(note?: string): void {
    this.board.end(this, "done", note);
  }

  failed(reason: string): void {
    this.board.end(this, "failed", reason);
  }

  stopped(): void {
    this.board.end(this, "stopped", undefined);
  }
}

export class ProgressBoard implements TaskBoard {
  #expected = 0;
  #done = 0;
  #failed = 0;
  #stopped = 0;
  readonly #running = new Set<Task>();
  #listeners: { changed: () => void; ended: (end: TaskEnd) => void };

  constructor(
    listeners: Partial<{ changed: () => void; ended: (end: TaskEnd) => void }> = {},
    readonly now: () => number = Date.now,
  ) {
    this.#listeners = { changed: () => {}, ended: () => {}, ...listeners };
  }

  expect(count: number): void {
    this.#expected += count;
    this.changed();
  }

  start(name: string, options: { quiet?: boolean } = {}): TaskProgress {
    const task = new Task(name, options.quiet === true, this);
    this.#running.add(task);
    this.changed();
    return task;
  }

  get runningCount(): number {
    return this.#running.size;
  }

  changed(): void {
    this.#listeners.changed();
  }

  end(task: Task, outcome: TaskEnd["outcome"], detail: string | undefined): void {
    if (task.ended) return;
    task.ended = true;
    this.#running.delete(task);
    if (outcome === "done") this.#done++;
    else if (outcome === "failed") this.#failed++;
    else this.#stopped++;
    const seconds = (this.now() - task.startedAt) / 1000;
    this.#listeners.ended({
      name: task.name,
      quiet: task.quiet,
      outcome,
      seconds,
      ...(detail === undefined ? {} : { detail }),
    });
    this.changed();
  }

  snapshot(): BoardSnapshot {
    const ended = this.#done + this.#failed + this.#stopped;
    return {
      total: Math.max(this.#expected, ended + this.#running.size),
      done: this.#done,
      failed: this.#failed,
      running: [...this.#running].map((task) => {
        const rate = task.rate();
        return {
          name: task.name,
          state: task.activity,
          startedAt: task.startedAt,
          ...(task.bytesDone === undefined ? {} : { bytesDone: task.bytesDone }),
          ...(task.bytesTotal === undefined ? {} : { bytesTotal: task.bytesTotal }),
          ...(rate === undefined ? {} : { rate }),
        };
      }),
    };
  }
}

/** A board that counts nothing and shows nothing: for loggers with no display. */
export const silentTasks: TaskBoard = {
  expect() {},
  start: () => ({ state() {}, bytes() {}, done() {}, failed() {}, stopped() {} }),
};
