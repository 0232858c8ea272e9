import { describe, expect, it } from "vitest";
import { binaryFileName } from "./binary-name.js";

describe("binaryFileName", () => {
  it("appends .exe on Windows when the asset carries it", () => {
    expect(binaryFileName("tool", "tool-windows-amd64.exe", "windows/amd64")).toBe("tool.exe");
    expect(binaryFileName("tool", "tool-windows-amd64.EXE.gz", "windows/amd64")).toBe("tool.exe");
    expect(binaryFileName("tool.exe", "tool.exe.zst", "windows/amd64")).toBe("tool.exe");
  });

  it("keeps the name elsewhere or when the asset has no .exe", () => {
    expect(binaryFileName("tool", "tool-windows-amd64", "windows/amd64")).toBe("tool");
    expect(binaryFileName("tool", "tool.exe", "linux/amd64")).toBe("tool");
    expect(binaryFileName("tool", "tool-linux.gz", "linux/arm64+libc.musl")).toBe("tool");
  });
});
