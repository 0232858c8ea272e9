import { describe, expect, it } from "vitest";
import { ExitCode } from "./exit-codes.js";
import { listenForInterrupt } from "./interrupt.js";
import type { Logger } from "./log.js";
import { silentTasks } from "./progress/board.js";

function recording(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return {
    log: { info: (m) => lines.push(m), warn: (m) => lines.push(m), progress: () => {}, tasks: silentTasks },
    lines,
  };
}

describe("listenForInterrupt", () => {
  it.each([
    ["SIGINT", ExitCode.Interrupted],
    ["SIGTERM", ExitCode.Terminated],
  ] as const)("%s aborts the signal with its name, says what is finished, and ends with %i", (name, code) => {
    const { log, lines } = recording();
    const before = process.listenerCount(name);
    const interruption = listenForInterrupt(log, "finishing the version being tagged");
    try {
      expect(interruption.exitCode).toBeUndefined();
      process.emit(name);
      expect(interruption.signal.aborted).toBe(true);
      expect(interruption.signal.reason).toBe(name);
      expect(interruption.received).toBe(name);
      expect(interruption.exitCode).toBe(code);
      expect(lines).toEqual([
        `${name}: stopping; finishing the version being tagged (${name} again to stop at once)`,
      ]);
    } finally {
      interruption.dispose();
    }
    expect(process.listenerCount(name)).toBe(before);
  });
});
