import { ExitCode, PkgError } from "@pkg/common";
import { describe, expect, it } from "vitest";
import { parseImageIndex, parseManifestDocument } from "./image-index.js";
import { MediaType } from "./types.js";

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const entry = { mediaType: MediaType.ImageManifest, digest: `sha256:${"a".repeat(64)}`, size: 10 };

function dataError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PkgError);
    expect((error as PkgError).exitCode).toBe(ExitCode.Data);
    return (error as PkgError).message;
  }
  throw new Error("no error");
}

describe("parseManifestDocument", () => {
  it("reads an index (with or without mediaType, Docker lists too) and a manifest", () => {
    expect(parseManifestDocument(json({ schemaVersion: 2, manifests: [entry] }), "t").kind).toBe("index");
    expect(
      parseManifestDocument(json({ mediaType: MediaType.DockerManifestList, manifests: [] }), "t").kind,
    ).toBe("index");
    expect(
      parseManifestDocument(json({ mediaType: MediaType.ImageManifest, config: entry, layers: [] }), "t")
        .kind,
    ).toBe("manifest");
  });

  it.each([
    ["not JSON", Buffer.from("{nope"), "r:1.0 is not JSON"],
    ["an array", json([]), "r:1.0 is not a JSON object"],
    [
      "a bad entry",
      json({ manifests: [{ digest: 3 }] }),
      "r:1.0 has a manifests[0] that is not a descriptor",
    ],
    [
      "an entry with a platform lacking os",
      json({ manifests: [{ ...entry, platform: { architecture: "amd64" } }] }),
      "not a descriptor",
    ],
    ["another media type", json({ mediaType: "text/plain", manifests: [] }), "is a text/plain, neither"],
    ["nothing it knows", json({ schemaVersion: 2 }), "is neither an image index nor an image manifest"],
  ])("refuses %s with exit 65 naming what was read", (_name, bytes, message) => {
    expect(dataError(() => parseManifestDocument(bytes, "r:1.0"))).toContain(message);
  });
});

describe("parseImageIndex", () => {
  it("refuses a single manifest where an index belongs", () => {
    const manifest = json({ mediaType: MediaType.ImageManifest, config: entry, layers: [] });
    expect(dataError(() => parseImageIndex(manifest, "r:1.0"))).toBe(
      "r:1.0 holds a single manifest, not an image index",
    );
    expect(parseImageIndex(json({ manifests: [entry] }), "r:1.0").manifests).toHaveLength(1);
  });
});
