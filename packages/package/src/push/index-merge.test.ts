import type { Descriptor, ImageIndex, Platform } from "@pkg/oci";
import { describe, expect, it } from "vitest";
import { platformsEqual } from "../platform/index.js";
import { asImageIndex, mergeIntoIndex } from "./index-merge.js";

const entry = (digest: string, platform: Platform): Descriptor & { platform: Platform } => ({
  mediaType: "application/vnd.oci.image.manifest.v1+json",
  digest: `sha256:${digest.repeat(64).slice(0, 64)}`,
  size: 100,
  platform,
});
const amd64 = { os: "linux", architecture: "amd64" };
const amd64Musl = { os: "linux", architecture: "amd64", "os.features": ["libc.musl"] };
const arm64 = { os: "linux", architecture: "arm64" };

describe("mergeIntoIndex", () => {
  it("creates an index for a new tag", () => {
    const index = mergeIntoIndex(undefined, entry("a", amd64), {}, platformsEqual);
    expect(index.manifests).toHaveLength(1);
    expect(index.annotations).toBeUndefined();
    expect(index.artifactType).toBe("application/vnd.pkg.package.v1");
  });

  it("replaces only the entry with an equal platform; libc variants are distinct platforms", () => {
    let index = mergeIntoIndex(undefined, entry("a", amd64), {}, platformsEqual);
    index = mergeIntoIndex(index, entry("b", amd64Musl), {}, platformsEqual);
    index = mergeIntoIndex(index, entry("c", arm64), {}, platformsEqual);
    index = mergeIntoIndex(index, entry("d", amd64), {}, platformsEqual);
    expect(index.manifests.map((m) => m.digest[7])).toEqual(["d", "b", "c"]);
  });

  it("gives the same bytes whatever order platforms arrive in", () => {
    const entries = [entry("a", amd64), entry("b", amd64Musl), entry("c", arm64)];
    const orders = [
      [0, 1, 2],
      [2, 1, 0],
      [1, 2, 0],
    ];
    const results = orders.map((order) =>
      JSON.stringify(
        order.reduce<ImageIndex | undefined>(
          (index, i) =>
            mergeIntoIndex(index, entries[i] as (typeof entries)[0], { z: "1", a: "2" }, platformsEqual),
          undefined,
        ),
      ),
    );
    expect(new Set(results).size).toBe(1);
  });

  it("merges annotations over the index's own, a given key replacing that key only", () => {
    const first = mergeIntoIndex(undefined, entry("a", amd64), { keep: "1", source: "old" }, platformsEqual);
    const second = mergeIntoIndex(first, entry("b", arm64), { source: "new" }, platformsEqual);
    expect(second.annotations).toEqual({ keep: "1", source: "new" });
  });
});

describe("asImageIndex", () => {
  it("accepts OCI indexes and Docker manifest lists; a single manifest is no index", () => {
    const oci = { schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json", manifests: [] };
    const docker = { ...oci, mediaType: "application/vnd.docker.distribution.manifest.list.v2+json" };
    const manifest = {
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      config: entry("c", amd64),
      layers: [],
    };
    expect(asImageIndex(Buffer.from(JSON.stringify(oci)), "t")).toBeDefined();
    expect(asImageIndex(Buffer.from(JSON.stringify(docker)), "t")).toBeDefined();
    expect(asImageIndex(Buffer.from(JSON.stringify(manifest)), "t")).toBeUndefined();
  });

  it("calls corrupt bytes bad data (65) naming the tag, never an internal error", () => {
    const read = () => asImageIndex(Buffer.from('{"manifests": [{"digest": 1}'), "r/acme/tool:1.0");
    expect(read).toThrow(expect.objectContaining({ exitCode: 65, message: "r/acme/tool:1.0 is not JSON" }));
  });
});
