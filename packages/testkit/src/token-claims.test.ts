import { describe, expect, it } from "vitest";
import { grantAccess, parseScopes, tokenClaims } from "./token-claims.js";

describe("parseScopes", () => {
  it("parses repository and registry scopes, several per parameter", () => {
    expect(parseScopes(["repository:x/y:pull,push", "registry:catalog:* repository:a/b:pull"])).toEqual([
      { type: "repository", name: "x/y", actions: ["pull", "push"] },
      { type: "registry", name: "catalog", actions: ["*"] },
      { type: "repository", name: "a/b", actions: ["pull"] },
    ]);
  });

  it("keeps a colon inside the name and merges repeated resources", () => {
    expect(
      parseScopes(["repository:localhost:5000/x:pull", "repository:localhost:5000/x:push,pull"]),
    ).toEqual([{ type: "repository", name: "localhost:5000/x", actions: ["pull", "push"] }]);
  });

  it("returns nothing for no scope and rejects malformed ones", () => {
    expect(parseScopes([])).toEqual([]);
    expect(() => parseScopes(["repository:x"])).toThrow(/invalid scope/);
    expect(() => parseScopes([":x:pull"])).toThrow(/invalid scope/);
  });
});

describe("grantAccess and tokenClaims", () => {
  const requested = [{ type: "repository", name: "x/y", actions: ["pull", "push"] }];

  it("grants the user what it asks and anonymous callers nothing", () => {
    expect(grantAccess(requested, true)).toEqual(requested);
    expect(grantAccess(requested, false)).toEqual([]);
  });

  it("builds the claim set with a lifetime and a one-second skew allowance", () => {
    const claims = tokenClaims({
      issuer: "iss",
      service: "svc",
      subject: "alice",
      access: requested,
      nowSeconds: 1000,
      lifetimeSeconds: 300,
      jti: "id-1",
    });
    expect(claims).toEqual({
      iss: "iss",
      sub: "alice",
      aud: "svc",
      exp: 1300,
      nbf: 999,
      iat: 1000,
      jti: "id-1",
      access: requested,
    });
  });
});
