import { describe, expect, it } from "vitest";
import type { BoardSnapshot } from "./board.js";
import { countsText, endLine, formatBytes, statusLine, taskText } from "./format.js";

describe("formatBytes", () => {
  it.each([
    [0, "0 B"],
    [999, "999 B"],
    [1000, "1.00 kB"],
    [12_345_678, "12.3 MB"],
    [1e9, "1.00 GB"],
    [3.2e12, "3.20 TB"],
  ])("%d is %s", (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

const task = (name: string, startedAt: number, extra: object = {}) => ({
  name,
  state: "bundling",
  startedAt,
  ...extra,
});

describe("status text", () => {
  it("shows a transfer with its bytes, total and rate", () => {
    expect(
      taskText(
        task("1.0.0 linux/amd64", 0, {
          state: "downloading",
          bytesDone: 12e6,
          bytesTotal: 30e6,
          rate: 8.1e6,
        }),
      ),
    ).toBe("1.0.0 linux/amd64 downloading 12.0 MB/30.0 MB 8.10 MB/s");
    expect(taskText(task("pull", 0, { state: "fetching", bytesDone: 512 }))).toBe("pull fetching 512 B");
  });

  it("counts, and lists at most three running tasks, the oldest first", () => {
    const snapshot: BoardSnapshot = {
      total: 80,
      done: 12,
      failed: 1,
      running: [task("d", 4), task("a", 1), task("c", 3), task("b", 2), task("e", 5)],
    };
    expect(countsText(snapshot)).toBe("12/80 done, 1 failed, 5 running");
    expect(statusLine(snapshot)).toBe(
      "12/80 done, 1 failed, 5 running: a bundling; b bundling; c bundling; and 2 more",
    );
    expect(statusLine({ total: 2, done: 2, failed: 0, running: [] })).toBe("2/2 done, 0 running");
  });

  it("says how a task ended", () => {
    expect(
      endLine({ name: "1.0.0 linux/amd64", quiet: false, outcome: "done", detail: "bundled", seconds: 3.14 }),
    ).toBe("done 1.0.0 linux/amd64 in 3.1 s (bundled)");
    expect(
      endLine({
        name: "1.0.0 linux/arm64",
        quiet: false,
        outcome: "failed",
        detail: "HTTP 404",
        seconds: 0.5,
      }),
    ).toBe("failed 1.0.0 linux/arm64: HTTP 404 (after 0.5 s)");
    expect(endLine({ name: "1.1.0 linux/amd64", quiet: false, outcome: "stopped", seconds: 0.21 })).toBe(
      "stopped 1.1.0 linux/amd64 after 0.2 s",
    );
  });
});
