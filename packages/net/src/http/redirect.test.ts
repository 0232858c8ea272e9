import { describe, expect, test } from "vitest";
import { REDIRECT_STATUSES, redirectedMethod } from "./redirect.js";

describe("redirected requests", () => {
  test("307 and 308 resend the method and the body", () => {
    for (const status of [307, 308]) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
        expect(redirectedMethod(status, method)).toEqual({ method, body: true });
      }
    }
  });

  test("303 turns everything but GET and HEAD into a GET without body", () => {
    expect(redirectedMethod(303, "POST")).toEqual({ method: "GET", body: false });
    expect(redirectedMethod(303, "PUT")).toEqual({ method: "GET", body: false });
    expect(redirectedMethod(303, "HEAD")).toEqual({ method: "HEAD", body: false });
  });

  test("301 and 302 turn a POST into a GET without body, and keep other methods", () => {
    expect(redirectedMethod(301, "POST")).toEqual({ method: "GET", body: false });
    expect(redirectedMethod(302, "POST")).toEqual({ method: "GET", body: false });
    expect(redirectedMethod(302, "PUT")).toEqual({ method: "PUT", body: true });
    expect(redirectedMethod(301, "GET")).toEqual({ method: "GET", body: false });
  });

  test("the redirect statuses", () => {
    expect([...REDIRECT_STATUSES]).toEqual([301, 302, 303, 307, 308]);
  });
});
