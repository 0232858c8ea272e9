import { describe, expect, it } from "vitest";
import { type ApiAnswer, apiFailure, apiMessage, isRateLimited } from "./forge-http.js";

const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}): ApiAnswer => ({
  status,
  headers,
  body: Buffer.from(typeof body === "string" ? body : JSON.stringify(body)),
  what: "GET /repos/acme/index",
});

describe("forge API answers", () => {
  it("rate limits: 429, and forgeone's 403 with its quota spent or a Retry-After", () => {
    expect(isRateLimited(answer(429))).toBe(true);
    expect(isRateLimited(answer(403, {}, { "x-ratelimit-remaining": "0" }))).toBe(true);
    expect(isRateLimited(answer(403, {}, { "retry-after": "60" }))).toBe(true);
    expect(isRateLimited(answer(403))).toBe(false);
    expect(isRateLimited(answer(503, {}, { "retry-after": "1" }))).toBe(false);
  });

  it("the API's own message, from forgeone's or forgetwo's shapes", () => {
    expect(apiMessage(answer(422, { message: "Update is not a fast forward" }).body)).toBe(
      "Update is not a fast forward",
    );
    expect(apiMessage(answer(409, { message: ["Another open merge request already exists"] }).body)).toBe(
      '["Another open merge request already exists"]',
    );
    expect(apiMessage(answer(400, { error: "actions is missing" }).body)).toBe("actions is missing");
    expect(apiMessage(answer(502, "<html>\nbad gateway").body)).toBe("<html>");
  });

  it.each([
    [answer(401, { message: "Bad credentials" }), 80],
    [answer(403, { message: "403 Forbidden" }), 80],
    [answer(403, { message: "Authentication by CI/CD job token not allowed from a to b." }), 77],
    [answer(403, {}, { "x-ratelimit-remaining": "0" }), 75],
    [answer(429), 75],
    [answer(500), 69],
    [answer(503), 69],
    [answer(422, { message: "Validation Failed" }), 1],
  ])("%j is exit %i", (failed, exitCode) => {
    expect(apiFailure(failed, "reading").exitCode).toBe(exitCode);
  });
});
