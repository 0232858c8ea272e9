import { describe, expect, it } from "vitest";
import { ProgressBoard, type TaskEnd } from "./board.js";

function clockedBoard() {
  let now = 1_000;
  const ends: TaskEnd[] = [];
  let changes = 0;
  const board = new ProgressBoard({ ended: (end) => ends.push(end), changed: () => changes++ }, () => now);
  return { board, ends, tick: (ms: number) => (now += ms), changes: () => changes };
}

describe("ProgressBoard", () => {
  it("counts expected, running, done and failed tasks", () => {
    const { board, ends, tick } = clockedBoard();
    board.expect(3);
    const a = board.start("1.0.0 linux/amd64");
    const b = board.start("1.0.0 linux/arm64");
    expect(board.snapshot()).toMatchObject({ total: 3, done: 0, failed: 0 });
    expect(board.snapshot().running.map((task) => task.name)).toEqual([
      "1.0.0 linux/amd64",
      "1.0.0 linux/arm64",
    ]);
    tick(2_500);
    a.done("bundled");
    b.failed("asset x: HTTP 404");
    b.done("ignored: a task ends once");
    const snapshot = board.snapshot();
    expect(snapshot).toMatchObject({ total: 3, done: 1, failed: 1, running: [] });
    expect(ends).toEqual([
      { name: "1.0.0 linux/amd64", quiet: false, outcome: "done", detail: "bundled", seconds: 2.5 },
      {
        name: "1.0.0 linux/arm64",
        quiet: false,
        outcome: "failed",
        detail: "asset x: HTTP 404",
        seconds: 2.5,
      },
    ]);
  });

  it("never reports fewer tasks in total than it has seen, and counts a stopped task as neither", () => {
    const { board, ends } = clockedBoard();
    board.start("a");
    board.start("b").done();
    board.start("c").stopped();
    expect(board.snapshot()).toMatchObject({ total: 3, done: 1, failed: 0 });
    expect(ends.map((end) => end.outcome)).toEqual(["done", "stopped"]);
  });

  it("gives a transfer's bytes and its rate over the last seconds, and resets them with the state", () => {
    const { board, tick } = clockedBoard();
    const task = board.start("push 1.0.0");
    task.state("uploading");
    task.bytes(0, 30e6);
    expect(board.snapshot().running[0]).toMatchObject({ state: "uploading", bytesDone: 0, bytesTotal: 30e6 });
    expect(board.snapshot().running[0]?.rate).toBeUndefined();
    tick(1_000);
    task.bytes(10e6, 30e6);
    expect(board.snapshot().running[0]?.rate).toBe(10e6);
    // a stall shows as a falling rate once the old samples leave the window
    for (let i = 0; i < 5; i++) {
      tick(1_000);
      task.bytes(10e6, 30e6);
    }
    expect(board.snapshot().running[0]?.rate).toBe(0);
    // chunks reported faster than the samples are taken still move the rate
    for (let i = 1; i <= 1000; i++) {
      tick(1);
      task.bytes(10e6 + i * 10e3, 30e6);
    }
    expect(board.snapshot().running[0]?.bytesDone).toBe(20e6);
    expect(board.snapshot().running[0]?.rate).toBeGreaterThan(0);
    task.state("tagging");
    const running = board.snapshot().running[0];
    expect(running?.state).toBe("tagging");
    expect(running?.bytesDone).toBeUndefined();
  });

  it("tells its display of every change", () => {
    const { board, changes } = clockedBoard();
    const task = board.start("a");
    task.state("downloading");
    task.bytes(1);
    task.done();
    expect(changes()).toBe(4);
  });
});
