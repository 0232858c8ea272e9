import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import { stderrLogger, wantsLiveDisplay } from "./log.js";

function collector(isTTY = false): { stream: NodeJS.WriteStream; text: () => string } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      text += chunk.toString();
      callback();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(stream, { isTTY });
  return { stream, text: () => text };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("stderrLogger in plain mode (CI, pipes)", () => {
  it("prints a status line per interval while tasks run, none while idle, and a line per task that ends", () => {
    vi.useFakeTimers();
    const { stream, text } = collector();
    const log = stderrLogger({ stream, mode: "plain", plainIntervalMs: 1000 });
    log.tasks.expect(2);
    const a = log.tasks.start("1.0.0 linux/amd64");
    a.state("downloading");
    a.bytes(5e6, 30e6);
    // state changes print nothing by themselves: the log grows with time, not with events
    expect(text()).toBe("");
    vi.advanceTimersByTime(1000);
    expect(text()).toBe("0/2 done, 1 running: 1.0.0 linux/amd64 downloading 5.00 MB/30.0 MB\n");
    const b = log.tasks.start("1.0.0 linux/arm64");
    a.done("bundled");
    b.failed("asset tool.tar.gz: HTTP 404");
    expect(text().split("\n").slice(1, 3)).toEqual([
      "done 1.0.0 linux/amd64 in 1.0 s (bundled)",
      "failed 1.0.0 linux/arm64: asset tool.tar.gz: HTTP 404 (after 0.0 s)",
    ]);
    const before = text();
    vi.advanceTimersByTime(10_000);
    expect(text()).toBe(before);
    expect(text()).not.toContain("\x1b");
  });

  it("leaves no line for a quiet task, whose command reports its end itself", () => {
    const { stream, text } = collector();
    const log = stderrLogger({ stream, mode: "plain" });
    log.tasks.start("build site", { quiet: true }).failed("cannot write");
    log.tasks.start("build docs", { quiet: true }).done();
    expect(text()).toBe("");
  });

  it("keeps secrets out of task lines", () => {
    const { stream, text } = collector();
    const log = stderrLogger({ stream, mode: "plain" });
    log.tasks.start("push").failed("https://user:hunter2@example.com/x refused");
    expect(text()).not.toContain("hunter2");
  });

  it("when quiet, says only what failed", () => {
    vi.useFakeTimers();
    const { stream, text } = collector();
    const log = stderrLogger({ stream, mode: "plain", quiet: true, plainIntervalMs: 1000 });
    const a = log.tasks.start("a");
    vi.advanceTimersByTime(5000);
    a.done();
    log.tasks.start("b").failed("no");
    log.info("hidden");
    expect(text()).toBe("failed b: no (after 0.0 s)\n");
  });
});

describe("wantsLiveDisplay", () => {
  it.each([
    [true, {}, true],
    [true, { CI: "true" }, false],
    [true, { CI: "1" }, false],
    [true, { CI: "false" }, true],
    [true, { TERM: "dumb" }, false],
    [false, {}, false],
  ])("a terminal: %s, env %j: %s", (isTTY, env, live) => {
    expect(wantsLiveDisplay(collector(isTTY).stream, env)).toBe(live);
  });
});
