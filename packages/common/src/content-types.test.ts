import { describe, expect, it } from "vitest";
import { contentTypeFor } from "./content-types.js";

describe("contentTypeFor", () => {
  it("names the types a site serves", () => {
    expect(contentTypeFor("index.html")).toBe("text/html; charset=utf-8");
    expect(contentTypeFor("a/app.JS")).toBe("text/javascript; charset=utf-8");
    expect(contentTypeFor("logo.svg")).toBe("image/svg+xml");
    expect(contentTypeFor("c/index.json")).toBe("application/json; charset=utf-8");
    expect(contentTypeFor("blob")).toBe("application/octet-stream");
  });
});
