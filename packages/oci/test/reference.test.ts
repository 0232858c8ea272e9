import { describe, expect, test } from "vitest";
import { formatReference, parseReference, parseRepositoryReference } from "../src/reference.js";

const digest = `sha256:${"a".repeat(64)}`;

describe("parseReference", () => {
  test.each([
    ["localhost/tool", { registry: "localhost", repository: "tool" }],
    ["localhost:5000/ns/tool:1.2.3", { registry: "localhost:5000", repository: "ns/tool", tag: "1.2.3" }],
    ["127.0.0.1:5000/ns/tool", { registry: "127.0.0.1:5000", repository: "ns/tool" }],
    ["[::1]:5000/ns/tool:latest", { registry: "[::1]:5000", repository: "ns/tool", tag: "latest" }],
    ["ghcr.io/a/b/c:v1_x-y.z", { registry: "ghcr.io", repository: "a/b/c", tag: "v1_x-y.z" }],
    [`ghcr.io/a/b@${digest}`, { registry: "ghcr.io", repository: "a/b", digest }],
    [`ghcr.io/a/b:1@${digest}`, { registry: "ghcr.io", repository: "a/b", tag: "1", digest }],
    [
      "reg.example.com/a.b/c__d/e-f/g--h/i_j",
      { registry: "reg.example.com", repository: "a.b/c__d/e-f/g--h/i_j" },
    ],
    ["Reg.Example.COM/x", { registry: "Reg.Example.COM", repository: "x" }],
    [`r.io/x:${"t".repeat(128)}`, { registry: "r.io", repository: "x", tag: "t".repeat(128) }],
    ["r.io/x:_private", { registry: "r.io", repository: "x", tag: "_private" }],
  ])("accepts %s", (input, expected) => {
    const parsed = parseReference(input);
    expect(parsed).toEqual(expected);
    expect(formatReference(parsed)).toBe(input);
  });

  test.each([
    ["", /empty/],
    ["tool", /registry host/],
    ["ubuntu:22.04", /registry host/],
    ["library/ubuntu", /"library" is not a registry host/],
    ["localhost:5000", /registry host/],
    ["localhost:5000/", /repository is missing/],
    ["localhost:5000/:tag", /repository is missing/],
    ["r.io/Upper/case", /"Upper"/],
    ["r.io/a//b", /empty path component/],
    ["r.io/a/", /empty path component/],
    ["r.io/-a", /"-a"/],
    ["r.io/a_", /"a_"/],
    ["r.io/a___b", /"a___b"/],
    ["r.io/a..b", /"a..b"/],
    ["r.io/x:", /tag ""/],
    ["r.io/x:-bad", /tag "-bad"/],
    ["r.io/x:.bad", /tag ".bad"/],
    [`r.io/x:${"t".repeat(129)}`, /tag/],
    ["r.io/x:a+b", /tag "a\+b"/],
    ["r.io/x@sha256:abc", /digest "sha256:abc"/],
    [`r.io/x@md5:${"a".repeat(32)}`, /digest/],
    ["https://r.io/x", /URL scheme/],
    ["r.io /x", /whitespace/],
    ["-r.io/x", /not a valid host/],
    ["r.io:99999/x", /not a valid host/],
    ["r_io.com/x", /not a valid host/],
    [`r.io/${"a".repeat(256)}`, /longer than 255/],
  ])("rejects %j with exit 64", (input, reason) => {
    let caught: unknown;
    try {
      parseReference(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ exitCode: 64 });
    expect((caught as Error).message).toMatch(reason);
  });

  test("never echoes credentials written into a reference", () => {
    expect(() => parseReference("user:s3cret-pass@r.io/x")).toThrow(/credentials/);
    try {
      parseReference("user:s3cret-pass@r.io/x");
    } catch (error) {
      expect((error as Error).message).not.toContain("s3cret");
    }
  });
});

describe("parseRepositoryReference (registry host optional, for layouts)", () => {
  test.each([
    ["hello", { repository: "hello" }],
    ["hello:1.0", { repository: "hello", tag: "1.0" }],
    ["tools/hello:1.0", { repository: "tools/hello", tag: "1.0" }],
    [`tools/hello@${digest}`, { repository: "tools/hello", digest }],
    ["library/ubuntu:22.04", { repository: "library/ubuntu", tag: "22.04" }],
    ["localhost:5000", { repository: "localhost", tag: "5000" }],
    ["localhost/hello:1.0", { registry: "localhost", repository: "hello", tag: "1.0" }],
    ["ghcr.io/acme/tool:1", { registry: "ghcr.io", repository: "acme/tool", tag: "1" }],
    [`r.io/x:1@${digest}`, { registry: "r.io", repository: "x", tag: "1", digest }],
  ])("accepts %s", (input, expected) => {
    const parsed = parseRepositoryReference(input);
    expect(parsed).toEqual(expected);
    expect(formatReference(parsed)).toBe(input);
  });

  test.each([
    ["", /empty/],
    [":1.0", /repository is missing/],
    ["Hello:1.0", /"Hello"/],
    ["tools//hello", /empty path component/],
    ["hello:-bad", /tag "-bad"/],
    ["hello@sha256:abc", /digest/],
    ["r_io.com/x", /"r_io.com"/],
    ["r.io:99999/x", /not a valid host/],
    ["https://r.io/x", /URL scheme/],
  ])("rejects %j with exit 64", (input, reason) => {
    expect(() => parseRepositoryReference(input)).toThrow(
      expect.objectContaining({ exitCode: 64, message: expect.stringMatching(reason) }),
    );
  });
});
