import { describe, expect, test } from "vitest";
import { resolveUploadMode } from "../src/upload-mode.js";
import { uploadedBytes } from "../src/upload-session.js";

describe("Range headers", () => {
  test("upload status ranges", () => {
    expect(uploadedBytes("0-1023")).toBe(1024);
    expect(uploadedBytes("bytes=0-9")).toBe(10);
    expect(uploadedBytes("0--1")).toBe(0);
    expect(uploadedBytes(undefined)).toBe(0);
    expect(uploadedBytes("5-9")).toBeUndefined();
    expect(uploadedBytes("0-0")).toBeUndefined();
  });
});

describe("upload mode", () => {
  test("the option, else PKG_REGISTRY_UPLOAD, else stream; an unknown value is a usage error", () => {
    expect(resolveUploadMode(undefined, {})).toBe("stream");
    expect(resolveUploadMode(undefined, { PKG_REGISTRY_UPLOAD: " Chunked " })).toBe("chunked");
    expect(resolveUploadMode(undefined, { PKG_REGISTRY_UPLOAD: "" })).toBe("stream");
    expect(resolveUploadMode("stream", { PKG_REGISTRY_UPLOAD: "chunked" })).toBe("stream");
    expect(resolveUploadMode("chunked", {})).toBe("chunked");
    expect(() => resolveUploadMode(undefined, { PKG_REGISTRY_UPLOAD: "fast" })).toThrow(
      expect.objectContaining({ exitCode: 64, message: expect.stringContaining("PKG_REGISTRY_UPLOAD") }),
    );
  });
});
