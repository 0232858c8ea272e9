import { ExitCode } from "@pkg/common";
import { describe, expect, it } from "vitest";
import { parseAnnotations } from "./annotations.js";

describe("parseAnnotations", () => {
  it("splits at the first = and keeps the value verbatim", () => {
    expect(parseAnnotations(["org.opencontainers.image.source=https://x.test/a?b=c", "k="])).toEqual({
      "org.opencontainers.image.source": "https://x.test/a?b=c",
      k: "",
    });
  });

  it("lets a later value of a key win", () => {
    expect(parseAnnotations(["a=1", "a=2"])).toEqual({ a: "2" });
  });

  it.each([
    ["novalue", /expected KEY=VALUE/],
    ["=value", /key is empty/],
    [" =value", /key is empty/],
    ["a b=c", /white space/],
  ])("refuses %j with exit 64", (arg, message) => {
    expect(() => parseAnnotations([arg])).toThrowError(message);
    try {
      parseAnnotations([arg]);
    } catch (error) {
      expect((error as { exitCode: number }).exitCode).toBe(ExitCode.Usage);
    }
  });
});
