import { describe, expect, it } from "vitest";
import { shCommandLine, shQuote } from "./shell-quote.js";

describe("shQuote", () => {
  it("single-quotes every word, a quote inside written as '\\''", () => {
    expect(shQuote("")).toBe("''");
    expect(shQuote("a b")).toBe("'a b'");
    expect(shQuote('$(id) `x` "q" it\'s')).toBe(`'$(id) \`x\` "q" it'\\''s'`);
  });

  it("joins an argv into one command line the shell splits back into the same words", () => {
    expect(shCommandLine(["docker", "run", "--platform", "linux/amd64", "it's here"])).toBe(
      "'docker' 'run' '--platform' 'linux/amd64' 'it'\\''s here'",
    );
  });
});
