import { describe, expect, test } from "vitest";
import { backoffDelay, classifyNetworkError, isTransientStatus, parseRetryAfter } from "../src/retry.js";
import { resolveUploadMode } from "../src/upload-mode.js";
import { uploadedBytes } from "../src/upload-session.js";

describe("Retry-After", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  test("seconds and HTTP dates, capped, past dates mean now", () => {
    expect(parseRetryAfter("2", now, 30_000)).toBe(2000);
    expect(parseRetryAfter(" 120 ", now, 30_000)).toBe(30_000);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:05 GMT", now, 30_000)).toBe(5000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:00:00 GMT", now, 30_000)).toBe(0);
    expect(parseRetryAfter("soon", now, 30_000)).toBeUndefined();
    expect(parseRetryAfter(undefined, now, 30_000)).toBeUndefined();
  });
});

describe("retry policy", () => {
  test("transient statuses", () => {
    expect([408, 429, 500, 502, 503, 504].every(isTransientStatus)).toBe(true);
    expect([200, 400, 401, 403, 404, 501, 505].some(isTransientStatus)).toBe(false);
  });
  test("backoff doubles with jitter and stays under the cap", () => {
    const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 300 };
    expect(backoffDelay(policy, 0, 0)).toBe(50);
    expect(backoffDelay(policy, 0, 1)).toBe(100);
    expect(backoffDelay(policy, 1, 1)).toBe(200);
    expect(backoffDelay(policy, 5, 1)).toBe(300);
  });
  test("network errors: unreachable versus transient", () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(classifyNetworkError(err("ECONNREFUSED"))).toBe("unavailable");
    expect(classifyNetworkError(err("ENOTFOUND"))).toBe("unavailable");
    expect(classifyNetworkError(err("EHOSTUNREACH"))).toBe("unavailable");
    expect(classifyNetworkError(err("UNABLE_TO_VERIFY_LEAF_SIGNATURE"))).toBe("unavailable");
    expect(classifyNetworkError(err("ERR_TLS_CERT_ALTNAME_INVALID"))).toBe("unavailable");
    expect(classifyNetworkError(err("ECONNRESET"))).toBe("transient");
    expect(classifyNetworkError(err("ETIMEDOUT"))).toBe("transient");
  });
});

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
