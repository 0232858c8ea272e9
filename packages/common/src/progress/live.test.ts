import { describe, expect, it } from "vitest";
import { liveRows } from "./live.js";

const task = (name: string, startedAt: number, extra: object = {}) => ({
  name,
  state: "bundling",
  startedAt,
  ...extra,
});

describe("the rows of the live display", () => {
  it("leads with the counts and their fraction, then the oldest running tasks, a bar only for sized transfers", () => {
    const rows = liveRows({
      total: 4,
      done: 1,
      failed: 1,
      running: [
        task("b", 2, { state: "downloading", bytesDone: 5, bytesTotal: 20 }),
        task("a", 1),
        task("c", 3, { state: "downloading", bytesDone: 7 }),
      ],
    });
    expect(rows).toEqual([
      { line: "1/4 done, 1 failed, 3 running", fraction: 0.5 },
      { line: "  a bundling", fraction: null },
      { line: "  b downloading 5 B/20 B", fraction: 0.25 },
      { line: "  c downloading 7 B", fraction: null },
    ]);
  });

  it("shows at most the given number of tasks and counts the rest", () => {
    const running = Array.from({ length: 11 }, (_, i) => task(`t${i}`, i));
    const rows = liveRows({ total: 11, done: 0, failed: 0, running }, 8);
    expect(rows).toHaveLength(10);
    expect(rows.at(-1)).toEqual({ line: "  and 3 more running", fraction: null });
    expect(liveRows({ total: 0, done: 0, failed: 0, running: [] })[0]).toEqual({
      line: "0/0 done, 0 running",
      fraction: 0,
    });
  });
});
