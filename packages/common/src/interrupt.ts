import { ExitCode } from "./exit-codes.js";
import type { Logger } from "./log.js";

/** The signals a long command stops cleanly on, and the exit code each one ends it with. */
const STOP_SIGNALS = { SIGINT: ExitCode.Interrupted, SIGTERM: ExitCode.Terminated } as const;

export type StopSignal = keyof typeof STOP_SIGNALS;

export interface Interruption {
  /** Aborted by the first SIGINT or SIGTERM; its reason is the signal's name. */
  readonly signal: AbortSignal;
  /** The signal received, if any. */
  readonly received: StopSignal | undefined;
  /** 130 after SIGINT, 143 after SIGTERM; undefined when none came. */
  readonly exitCode: ExitCode | undefined;
  /** Stops listening (the default handlers come back). */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM while a long command runs. The first one aborts `signal` and says
 * so (`onStop` names what the command still finishes); the command is expected to stop starting
 * work, finish or roll back what cannot be left half done, and return. A second signal ends the
 * process at once with the same code: the user insisted, and whatever the command left half done
 * is what its next run completes.
 */
export function listenForInterrupt(log: Logger, onStop: string): Interruption {
  const controller = new AbortController();
  let received: StopSignal | undefined;
  const handlers = new Map<StopSignal, () => void>();
  for (const name of Object.keys(STOP_SIGNALS) as StopSignal[]) {
    const handler = () => {
      if (received !== undefined) {
        log.warn(`${name} again: stopping now`);
        process.exit(STOP_SIGNALS[received]);
      }
      received = name;
      log.warn(`${name}: stopping; ${onStop} (${name} again to stop at once)`);
      controller.abort(name);
    };
    handlers.set(name, handler);
    process.on(name, handler);
  }
  return {
    signal: controller.signal,
    get received() {
      return received;
    },
    get exitCode() {
      return received === undefined ? undefined : STOP_SIGNALS[received];
    },
    dispose() {
      for (const [name, handler] of handlers) process.off(name, handler);
    },
  };
}
