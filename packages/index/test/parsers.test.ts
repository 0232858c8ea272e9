import { describe, expect, it } from "vitest";
import {
  digestHex,
  IndexFormatError,
  isSafePackagePath,
  isSha256Digest,
  objectFilePath,
  parseCatalogIndex,
  parseImageIndex,
  parseIndexConfig,
  parsePackageRoot,
  rootFilePath,
  sha256Of,
  splitPackageName,
} from "../src/index.js";

const digest = `sha256:${"a".repeat(64)}`;
const root = {
  name: "ocx.sh/astral-sh/uv",
  repository: "oci://ghcr.io/ocx-contrib/astral-sh/uv",
  owners: [{ github: "ocx-bot", github_id: 1 }],
  status: "active",
  deprecated_message: null,
  created: "2026-08-01",
  desc: null,
  tags: { "0.1.0": { content: digest, observed: "2026-08-01T00:00:00Z" } },
};

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(IndexFormatError);
    return (error as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("reserved tags", () => {
  it.each([
    "__pkg.desc",
    "__PKG.published",
    "__ocx.desc",
    `sha256.${"a".repeat(64)}`,
    `sha256-${"b".repeat(64)}`,
    `sha256-${"b".repeat(64)}.sig`,
  ])(
    "a root listing %s is refused: the tools' own tags and digest-shaped tags are never an index's",
    (tag) => {
      const bad = { ...root, tags: { [tag]: root.tags["0.1.0"] } };
      expect(messageOf(() => parsePackageRoot(bad, "r.json"))).toBe(
        `r.json: $.tags[${JSON.stringify(tag)}]: not a valid tag name`,
      );
    },
  );
});

describe("error messages", () => {
  it("name the file and the JSON path", () => {
    const bad = { ...root, tags: { ".28.1": root.tags["0.1.0"] } };
    expect(messageOf(() => parsePackageRoot(bad, "p/astral-sh/uv.json"))).toBe(
      'p/astral-sh/uv.json: $.tags[".28.1"]: not a valid tag name',
    );
    expect(messageOf(() => parsePackageRoot({ ...root, owners: [{ github: "x" }] }, "r.json"))).toBe(
      "r.json: $.owners[0].github_id: required property missing",
    );
    expect(
      messageOf(() =>
        parseCatalogIndex({ format_version: 1, packages: { "a/b": "sha256:x" } }, "c/index.json"),
      ),
    ).toBe('c/index.json: $.packages["a/b"]: not a sha256 digest');
  });

  it("refuse bytes that are not UTF-8 JSON", () => {
    expect(messageOf(() => parseIndexConfig(new TextEncoder().encode("{"), "config.json"))).toMatch(
      /^config\.json: not valid JSON/,
    );
    expect(messageOf(() => parseIndexConfig(new Uint8Array([0xff, 0xfe]), "config.json"))).toBe(
      "config.json: not valid UTF-8",
    );
  });

  it("refuse a newer format_version before looking at anything else", () => {
    expect(messageOf(() => parseIndexConfig({ format_version: 3, whatever: 1 }, "config.json"))).toBe(
      "config.json: format_version 3 is newer than this tool understands (1)",
    );
    expect(messageOf(() => parseCatalogIndex({ format_version: 2 }, "c/index.json"))).toBe(
      "c/index.json: format_version 2 is newer than this tool understands (1)",
    );
  });
});

describe("name_segments", () => {
  it("sets how many segments package paths have", () => {
    const threeDeep = { format_version: 1, packages: { "a/b/c": digest } };
    expect(messageOf(() => parseCatalogIndex(threeDeep, "c/index.json"))).toContain(
      "not a valid package path",
    );
    expect(parseCatalogIndex(threeDeep, "c/index.json", { nameSegments: 3 }).packages).toEqual({
      "a/b/c": digest,
    });
    expect(parsePackageRoot({ ...root, name: "ocx.sh/a/b/c" }, "r.json", { nameSegments: 3 }).name).toBe(
      "ocx.sh/a/b/c",
    );
  });
});

describe("isSafePackagePath", () => {
  it("accepts the namespace/package grammar", () => {
    for (const path of ["astral-sh/uv", "a/b", "kitware/cmake", "x/foo.bar", "x/foo__bar", "x/foo--bar"]) {
      expect(isSafePackagePath(path)).toBe(true);
    }
  });

  it("refuses traversal, empty segments, wrong counts and odd characters", () => {
    const bad = [
      "../x",
      "a/..",
      "a/.",
      "./a",
      "a//b",
      "/a/b",
      "a/b/",
      "a",
      "a/b/c",
      "a\\b/c",
      "A/b",
      "a/b%2f",
      "-a/b",
    ];
    for (const path of [...bad, `a/${"b".repeat(140)}`, `${"a".repeat(40)}/b`]) {
      expect(isSafePackagePath(path)).toBe(false);
    }
    expect(isSafePackagePath("a/b/c", 3)).toBe(true);
  });

  it("splits full names", () => {
    expect(splitPackageName("ocx.sh/astral-sh/uv")).toEqual({ label: "ocx.sh", path: "astral-sh/uv" });
    expect(splitPackageName("ocx.sh/../uv")).toBeUndefined();
    expect(splitPackageName("uv")).toBeUndefined();
  });
});

describe("digests and paths", () => {
  it("hash bytes to sha256 digests", () => {
    const hex = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    expect(sha256Of(new TextEncoder().encode("abc"))).toBe(`sha256:${hex}`);
    expect(isSha256Digest(`sha256:${hex}`)).toBe(true);
    expect(isSha256Digest(`sha256:${hex.toUpperCase()}`)).toBe(false);
    expect(isSha256Digest(`sha512:${hex}`)).toBe(false);
    expect(digestHex(`sha256:${hex}`)).toBe(hex);
    expect(() => digestHex("sha256:../x")).toThrow(TypeError);
  });

  it("build index-relative paths and refuse to build escaping ones", () => {
    expect(rootFilePath("astral-sh/uv")).toBe("p/astral-sh/uv.json");
    expect(objectFilePath("astral-sh/uv", digest, "md")).toBe(`p/astral-sh/uv/o/sha256/${"a".repeat(64)}.md`);
    expect(() => rootFilePath("../x")).toThrow(TypeError);
    expect(() => rootFilePath("a//b")).toThrow(TypeError);
    expect(() => objectFilePath("a/b", "sha256:..", "json")).toThrow(TypeError);
  });
});

describe("image indexes", () => {
  it("stay open but check descriptors", () => {
    const index = { schemaVersion: 2, manifests: [{ mediaType: "m", digest, size: 1, extra: true }], x: 1 };
    expect(parseImageIndex(index, "o.json")).toEqual(index);
    expect(
      messageOf(() =>
        parseImageIndex({ schemaVersion: 2, manifests: [{ mediaType: "m", digest, size: -1 }] }, "o.json"),
      ),
    ).toBe("o.json: $.manifests[0].size: -1 is less than the minimum of 0");
  });
});
