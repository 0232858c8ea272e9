import { describe, expect, test } from "vitest";
import { classifyNetworkError, isRetryableStatus } from "./transient.js";

describe("what is transient", () => {
  test("statuses", () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([200, 304, 400, 401, 403, 404, 501, 505].some(isRetryableStatus)).toBe(false);
  });

  test("network errors: unreachable versus transient, the code read through causes", () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(classifyNetworkError(err("ECONNREFUSED"))).toBe("unavailable");
    expect(classifyNetworkError(err("ENOTFOUND"))).toBe("unavailable");
    expect(classifyNetworkError(err("EHOSTUNREACH"))).toBe("unavailable");
    expect(classifyNetworkError(err("UNABLE_TO_VERIFY_LEAF_SIGNATURE"))).toBe("unavailable");
    expect(classifyNetworkError(err("ERR_TLS_CERT_ALTNAME_INVALID"))).toBe("unavailable");
    expect(classifyNetworkError(err("ECONNRESET"))).toBe("transient");
    expect(classifyNetworkError(err("ETIMEDOUT"))).toBe("transient");
    expect(classifyNetworkError(err("UND_ERR_SOCKET"))).toBe("transient");
    expect(classifyNetworkError(new Error("wrapped", { cause: err("ECONNREFUSED") }))).toBe("unavailable");
  });
});
