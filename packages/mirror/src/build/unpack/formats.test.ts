import { describe, expect, it } from "vitest";
import { classify, detectOuter, isTarHeader } from "./formats.js";

function v7Header(name: string): Buffer {
  const block = Buffer.alloc(512);
  block.write(name, 0, "latin1");
  block.write("0000644\0", 100, "latin1");
  block.write("00000000000\0", 124, "latin1");
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return block;
}

describe("detectOuter", () => {
  it.each([
    ["gzip", [0x1f, 0x8b, 8, 0]],
    ["xz", [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0]],
    ["zstd", [0x28, 0xb5, 0x2f, 0xfd, 0]],
    ["bzip2", [0x42, 0x5a, 0x68, 0x39, 0x31]],
  ] as const)("tells %s by its magic", (compression, bytes) => {
    expect(detectOuter(Buffer.from(bytes))).toEqual({ kind: "compressed", compression });
  });

  it("tells zip, and takes anything else as raw", () => {
    expect(detectOuter(Buffer.from("PK\x03\x04rest", "latin1"))).toEqual({ kind: "zip" });
    expect(detectOuter(Buffer.from("PK\x05\x06", "latin1"))).toEqual({ kind: "zip" });
    expect(detectOuter(Buffer.from("BZh0", "latin1"))).toEqual({ kind: "raw" });
    expect(detectOuter(Buffer.from("\x7fELF", "latin1"))).toEqual({ kind: "raw" });
    expect(detectOuter(Buffer.alloc(0))).toEqual({ kind: "raw" });
  });
});

describe("isTarHeader", () => {
  it("accepts the ustar magic and a v7 header with a matching checksum", () => {
    const ustar = Buffer.alloc(512);
    ustar.write("ustar", 257, "latin1");
    expect(isTarHeader(ustar)).toBe(true);
    expect(isTarHeader(v7Header("bin/tool"))).toBe(true);
  });

  it("refuses a wrong checksum, an empty name and a short block", () => {
    const bad = v7Header("bin/tool");
    bad[0] = 0x63;
    expect(isTarHeader(bad)).toBe(false);
    expect(isTarHeader(Buffer.alloc(512))).toBe(false);
    expect(isTarHeader(v7Header("x").subarray(0, 300))).toBe(false);
  });
});

describe("classify", () => {
  it("sorts compressed content into tar or a single file", () => {
    const tar = v7Header("a");
    expect(classify({ kind: "compressed", compression: "xz" }, tar)).toEqual({
      kind: "tar",
      compression: "xz",
    });
    expect(classify({ kind: "compressed", compression: "xz" }, Buffer.from("#!/bin/sh\n"))).toEqual({
      kind: "compressed-file",
      compression: "xz",
    });
    expect(classify({ kind: "raw" }, tar)).toEqual({ kind: "tar", compression: undefined });
    expect(classify({ kind: "raw" }, Buffer.from("MZ"))).toEqual({ kind: "plain-file" });
  });
});
