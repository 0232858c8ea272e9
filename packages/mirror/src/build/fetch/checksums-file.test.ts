import { ExitCode } from "@pkg/common";
import { describe, expect, test } from "vitest";
import { parseChecksumsFile } from "./checksums-file.js";

const a = "a".repeat(64);
const b = "B".repeat(64);

describe("parseChecksumsFile", () => {
  test("reads HASH NAME lines, skipping # comments and blank lines", () => {
    const text = `# release 1.2.3\n\n${a}  tool-linux.tar.gz\n   \n# ${b}  commented.zip\r\n${b} *tool-windows.zip\r\n${a}  ./tool darwin.tar.gz\n`;
    const table = parseChecksumsFile(text, "sums");
    expect([...table.keys()]).toEqual(["tool-linux.tar.gz", "tool-windows.zip", "tool darwin.tar.gz"]);
    expect(table.get("tool-linux.tar.gz")).toEqual({ algorithm: "sha256", hex: a });
    // hex is compared in lower case; the `*` binary marker is not part of the name
    expect(table.get("tool-windows.zip")).toEqual({ algorithm: "sha256", hex: b.toLowerCase() });
    expect(table.has("commented.zip")).toBe(false);
  });

  test("an empty file lists nothing", () => {
    expect(parseChecksumsFile("# nothing\n\n", "sums").size).toBe(0);
  });

  test("a line of another shape makes the file malformed, naming the source and the line", () => {
    const text = `${a}  ok.tar.gz\nSHA256 (tool.tar.gz) = ${a}\n`;
    expect(() => parseChecksumsFile(text, "https://example.test/SHA256SUMS")).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.Data,
        message:
          "checksums file https://example.test/SHA256SUMS, line 2: expected a sha256 hash and a file name",
      }),
    );
    expect(() => parseChecksumsFile(`${"a".repeat(63)}  short.tar.gz`, "sums")).toThrow(/line 1/);
    expect(() => parseChecksumsFile(a, "sums")).toThrow(/line 1/);
  });

  test("a name listed twice with different hashes is refused; the same hash twice is accepted", () => {
    expect(() => parseChecksumsFile(`${a}  x.tar.gz\n${b}  x.tar.gz\n`, "sums")).toThrow(
      /line 2: x.tar.gz is listed twice with different hashes/,
    );
    expect(parseChecksumsFile(`${a}  x.tar.gz\n${a} *x.tar.gz\n`, "sums").get("x.tar.gz")?.hex).toBe(a);
  });
});
