import { describe, expect, it } from "vitest";
import { cronProblem, sameSchedule } from "./cron.js";

describe("cron schedules", () => {
  it.each(["0 3 * * *", "*/15 2-4 1,15 JAN-DEC mon-fri", "0  3 * * 1"])("accepts %j", (text) => {
    expect(cronProblem(text)).toBeUndefined();
  });

  it.each([
    ["", "must not be empty"],
    ["  ", "must not be empty"],
    ["0 3 * * ?", 'holds "?"'],
    ["0\t3 * * *", 'holds "\\t"'],
    ["0 3 * * 1 # weekly", 'holds "#"'],
  ])("refuses %j", (text, reason) => {
    expect(cronProblem(text)).toContain(reason);
  });

  it("compares schedules by their words, not their spacing", () => {
    expect(sameSchedule("0 3 * * *", " 0  3 * * * ")).toBe(true);
    expect(sameSchedule("0 3 * * *", "0 4 * * *")).toBe(false);
  });
});
