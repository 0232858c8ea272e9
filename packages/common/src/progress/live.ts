import { createRequire } from "node:module";
import type { Format as CliFormat, MultiBar, Options, Params, SingleBar } from "cli-progress";
import type { BoardSnapshot, RunningTask } from "./board.js";
import { countsText, taskText } from "./format.js";

type CliProgress = { MultiBar: typeof MultiBar; Format: typeof CliFormat };

/** Rows of running tasks shown at once; the rest are counted on one more row. */
const MAX_ROWS = 8;
const REFRESH_MS = 100;

interface Row {
  line: string;
  /** 0..1 for a transfer of known size; null shows no bar (cli-progress merges payloads, so always set). */
  fraction: number | null;
}

/** The rows the display shows for a snapshot: the counts first, then the oldest running tasks. */
export function liveRows(snapshot: BoardSnapshot, maxRows = MAX_ROWS): Row[] {
  const running = [...snapshot.running].sort((a, b) => a.startedAt - b.startedAt);
  const rows: Row[] = [
    {
      line: countsText(snapshot),
      fraction: snapshot.total === 0 ? 0 : (snapshot.done + snapshot.failed) / snapshot.total,
    },
  ];
  for (const task of running.slice(0, maxRows)) rows.push(taskRow(task));
  if (running.length > maxRows)
    rows.push({ line: `  and ${running.length - maxRows} more running`, fraction: null });
  return rows;
}

function taskRow(task: RunningTask): Row {
  const fraction =
    task.bytesDone !== undefined && task.bytesTotal !== undefined && task.bytesTotal > 0
      ? Math.min(1, task.bytesDone / task.bytesTotal)
      : null;
  return { line: `  ${taskText(task)}`, fraction };
}

/**
 * The terminal display: a multi-line area under the log, redrawn ten times a second by
 * cli-progress, with one row of counts and a row per running task (bytes, rate and a bar for
 * transfers). Lines logged meanwhile are printed above it. cli-progress is loaded only when a
 * display starts, so commands that never show one do not pay for it.
 */
export class LiveDisplay {
  readonly #bars: MultiBar;
  readonly #format: typeof CliFormat;
  readonly #rows: SingleBar[] = [];
  readonly #timer: NodeJS.Timeout;
  readonly #restore = () => this.stop();

  constructor(
    private readonly snapshot: () => BoardSnapshot,
    stream: NodeJS.WriteStream,
  ) {
    const cli = createRequire(import.meta.url)("cli-progress") as CliProgress;
    this.#format = cli.Format;
    this.#bars = new cli.MultiBar({
      stream,
      format: (options: Options, params: Params, payload: Row) => this.#render(options, params, payload),
      barsize: 16,
      hideCursor: true,
      clearOnComplete: true,
      // the terminal keeps wrapping: cli-progress cuts its own rows at the width, and a long line
      // logged above them (an error) stays whole instead of being cut at the edge
      linewrap: true,
      fps: 10,
      barCompleteChar: "#",
      barIncompleteChar: "-",
    });
    // cli-progress redraws on a timer of its own: unreferenced, so that a display left running
    // never keeps the process alive
    this.#bars.on("update-post", () => (this.#bars as unknown as { timer?: NodeJS.Timeout }).timer?.unref());
    this.#timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.#timer.unref();
    // the cursor comes back however the process ends
    process.once("exit", this.#restore);
    this.refresh();
  }

  #render(options: Options, params: Params, row: Row): string {
    if (row.fraction === null) return row.line;
    // the bar last: a narrow terminal cuts it before the words
    return `${row.line} ${this.#format.BarFormat(params.progress, options)}`;
  }

  /** Brings the rows in line with the board (cli-progress draws them on its own clock). */
  refresh(): void {
    const rows = liveRows(this.snapshot());
    while (this.#rows.length > rows.length) this.#bars.remove(this.#rows.pop() as SingleBar);
    rows.forEach((row, at) => {
      const progress = row.fraction ?? 0;
      const bar = this.#rows[at];
      if (bar === undefined) this.#rows.push(this.#bars.create(1, progress, row));
      else bar.update(progress, row);
    });
  }

  /** A line above the display (a log line, or what a task ended with). */
  line(text: string): void {
    this.#bars.log(`${text}\n`);
  }

  stop(): void {
    clearInterval(this.#timer);
    process.removeListener("exit", this.#restore);
    // lines logged since the last redraw are still buffered: draw once more, then clear the area
    if (this.#bars.isActive) this.#bars.update();
    this.#bars.stop();
  }
}
