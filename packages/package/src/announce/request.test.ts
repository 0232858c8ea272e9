import { describe, expect, it } from "vitest";
import { checkPackagePath, parseOwner, parseTagList, repositoryUri } from "./request.js";

const usage = (run: () => unknown, message: string) => {
  expect(run).toThrow(message);
  try {
    run();
  } catch (error) {
    expect((error as { exitCode?: number }).exitCode).toBe(64);
  }
};

describe("announce request parsing", () => {
  it("splits tag lists on commas and newlines, trimmed and de-duplicated", () => {
    expect(parseTagList(" 1.2.3, 1.2\n1\r\n\nlatest,1.2 ", "--tags")).toEqual([
      "1.2.3",
      "1.2",
      "1",
      "latest",
    ]);
    expect(parseTagList("\n", "--tags-file f")).toEqual([]);
  });

  it("refuses reserved tags and what is not a tag (64)", () => {
    usage(() => parseTagList("1.0,__pkg.desc", "--tags"), "--tags: __pkg.desc is a reserved tag");
    usage(() => parseTagList(`sha256-${"a".repeat(64)}.sig`, "--tags"), "is a reserved tag");
    usage(() => parseTagList("-x", "--tags"), '--tags: "-x" is not a valid tag');
    usage(() => parseTagList("a b", "--tags"), "is not a valid tag");
  });

  it("reads packages, owners and repositories, refusing malformed ones (64)", () => {
    expect(checkPackagePath("acme/tool")).toBe("acme/tool");
    usage(() => checkPackagePath("tool"), "expected NAMESPACE/PACKAGE");
    usage(() => checkPackagePath("acme/Tool"), "expected NAMESPACE/PACKAGE");
    usage(() => checkPackagePath("a/b/c"), "expected NAMESPACE/PACKAGE");
    expect(parseOwner("alice-b:123")).toEqual({ github: "alice-b", github_id: 123 });
    usage(() => parseOwner("alice:0"), "expected LOGIN:ID");
    usage(() => parseOwner("-alice:1"), "expected LOGIN:ID");
    expect(repositoryUri("127.0.0.1:5000/acme/tool")).toBe("oci://127.0.0.1:5000/acme/tool");
    expect(repositoryUri("ghcr.io/acme/tools/tool")).toBe("oci://ghcr.io/acme/tools/tool");
    usage(() => repositoryUri("ghcr.io/acme/tool:1.0"), "without a tag or digest");
    usage(() => repositoryUri("GHCR.io/acme/tool"), "lowercase host[:port]");
    usage(() => repositoryUri("acme/tool"), "registry");
  });
});
