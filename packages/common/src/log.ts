import { type BoardSnapshot, ProgressBoard, silentTasks, type TaskBoard } from "./progress/board.js";
import { endLine } from "./progress/format.js";
import { LiveDisplay } from "./progress/live.js";
import { PLAIN_INTERVAL_MS, PlainDisplay } from "./progress/plain.js";
import { redact } from "./secrets.js";

/**
 * Human lines go to stderr; stdout is kept for machine output (`--format json`).
 * Long work is counted in `tasks`: on a terminal it is shown live under the log; in CI and when
 * piped, as a status line at a bounded rate and one line per task that ends.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** A step of the command itself ("listing tags"): a status line, rewritten in place on a terminal. */
  progress(message: string): void;
  tasks: TaskBoard;
}

/** `live`: redrawn on a terminal; `plain`: bounded lines; `auto`: live on a terminal outside CI. */
export type ProgressMode = "auto" | "live" | "plain";

export interface StderrLoggerOptions {
  quiet?: boolean;
  stream?: NodeJS.WriteStream;
  mode?: ProgressMode;
  env?: NodeJS.ProcessEnv;
  /** How often plain mode prints a status line while tasks run. */
  plainIntervalMs?: number;
}

/** Whether a live display suits `stream`: a terminal, not a CI log, not a dumb terminal. */
export function wantsLiveDisplay(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI !== undefined && env.CI !== "" && env.CI !== "false" && env.CI !== "0";
  return stream.isTTY === true && !ci && env.TERM !== "dumb";
}

export function stderrLogger(options: StderrLoggerOptions = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const mode = options.mode ?? "auto";
  const live =
    !options.quiet &&
    (mode === "live" || (mode === "auto" && wantsLiveDisplay(stream, options.env ?? process.env)));
  const tty = stream.isTTY === true;
  let transient = false;
  const clearTransient = () => {
    if (transient) stream.write("\r\x1b[K");
    transient = false;
  };
  let display: LiveDisplay | undefined;
  // a quiet logger (machine output on stdout) shows no status lines, only failures
  const plain =
    live || options.quiet
      ? undefined
      : new PlainDisplay(
          () => board.snapshot(),
          (line) => stream.write(`${redact(line)}\n`),
          options.plainIntervalMs ?? PLAIN_INTERVAL_MS,
        );
  const write = (line: string) => {
    if (display) display.line(redact(line));
    else {
      clearTransient();
      stream.write(`${redact(line)}\n`);
    }
  };
  const board = new ProgressBoard({
    changed: () => {
      if (plain) return plain.changed(board.runningCount);
      if (!live) return;
      if (board.runningCount > 0 && display === undefined) {
        clearTransient();
        display = new LiveDisplay((): BoardSnapshot => board.snapshot(), stream);
      } else if (board.runningCount === 0 && display !== undefined) {
        display.stop();
        display = undefined;
      }
    },
    ended: (end) => {
      if (end.quiet || (options.quiet && end.outcome !== "failed")) return;
      write(endLine(end));
    },
  });
  return {
    info(message) {
      if (!options.quiet) write(message);
    },
    warn(message) {
      write(`warning: ${message}`);
    },
    progress(message) {
      if (options.quiet) return;
      if (display) display.line(redact(message));
      else if (tty) {
        clearTransient();
        stream.write(redact(message));
        transient = true;
      } else {
        stream.write(`${redact(message)}\n`);
      }
    },
    tasks: board,
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, progress() {}, tasks: silentTasks };
