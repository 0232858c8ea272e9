import { redact } from "./secrets.js";

/**
 * Human lines go to stderr; stdout is kept for machine output (`--format json`).
 * Progress is plain lines; on a terminal a progress line is rewritten in place.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  progress(message: string): void;
}

export function stderrLogger(options: { quiet?: boolean; stream?: NodeJS.WriteStream } = {}): Logger {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  let transient = false;
  const clear = () => {
    if (transient) stream.write("\r\x1b[K");
    transient = false;
  };
  return {
    info(message) {
      if (options.quiet) return;
      clear();
      stream.write(`${redact(message)}\n`);
    },
    warn(message) {
      clear();
      stream.write(`warning: ${redact(message)}\n`);
    },
    progress(message) {
      if (options.quiet) return;
      if (tty) {
        clear();
        stream.write(redact(message));
        transient = true;
      } else {
        stream.write(`${redact(message)}\n`);
      }
    },
  };
}

export const silentLogger: Logger = { info() {}, warn() {}, progress() {} };
