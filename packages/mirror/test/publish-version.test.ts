import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { ExitCode, PkgError } from "@pkg/common";
import {
  type BlobSource,
  type ImageIndex,
  MemoryStore,
  openMemory,
  sha256Digest,
  type Target,
} from "@pkg/oci";
import { defaultMetadata } from "@pkg/package";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REVISION_ANNOTATION, SOURCE_ANNOTATION } from "../src/publish/annotations.js";
import { type PublishVersionOptions, publishVersion } from "../src/publish/publish-version.js";
import { makeBundle, recordingLogger, recordingSleep } from "./support/publish-support.js";

// publishing needs a target, not HTTP (publish-retry and the sync tests cover the registry): the in-memory one
const store = new MemoryStore();
let temp: TempDir;
let amd64: string;
let arm64: string;

beforeAll(async () => {
  temp = await tempDir("publish-");
  amd64 = await makeBundle(temp.path, "amd64", { "bin/tool": "#!/bin/sh\necho amd64\n" });
  arm64 = await makeBundle(temp.path, "arm64", { "bin/tool": "#!/bin/sh\necho arm64\n" });
});
afterAll(async () => {
  await temp?.remove();
});

const repo = (name: string) => openMemory(`publish/${name}`, { store });

const spec = {
  cascade: { enabled: true },
  concurrency: { max_downloads: 8, max_bundles: 1, rate_limit_ms: 0, max_retries: 3, compression_threads: 0 },
};

function run(name: string, overrides: Partial<PublishVersionOptions> = {}) {
  const { log, lines } = recordingLogger();
  const { sleep, waits } = recordingSleep();
  const result = publishVersion({
    target: repo(name),
    version: "1.2.3",
    platforms: [
      { platform: "linux/amd64", layers: [amd64], metadata: defaultMetadata() },
      { platform: "linux/arm64", layers: [arm64], metadata: defaultMetadata() },
    ],
    spec,
    primaryTag: "1.2.3_20250102030405",
    env: {},
    sleep,
    log,
    ...overrides,
  });
  return { result, lines, waits };
}

async function indexAt(name: string, tag: string): Promise<ImageIndex> {
  const stored = await repo(name).fetchManifest(tag);
  if (!stored) throw new Error(`no manifest at ${tag}`);
  return JSON.parse(stored.bytes.toString("utf8")) as ImageIndex;
}

const platformsOf = (index: ImageIndex) => index.manifests.map((m) => m.platform?.architecture).sort();

describe("publishVersion", () => {
  test("a whole version gets its primary tag and the rolling tags, every index annotated", async () => {
    const { result } = run("whole", {
      env: {
        GITHUB_SERVER_URL: "https://forge.example",
        GITHUB_REPOSITORY: "acme/mirrors",
        GITHUB_SHA: "0123456789abcdef0123456789abcdef01234567",
        HOME: "/nowhere",
      },
      spec: { ...spec, annotations: { [REVISION_ANNOTATION]: "pinned", "org.example.team": "tools" } },
    });
    const published = await result;
    expect(published.primary_tag).toBe("1.2.3_20250102030405");
    expect(published.cascade).toBe(true);
    expect(published.platforms.map((p) => [p.platform, p.status, p.attempts])).toEqual([
      ["linux/amd64", "pushed", 1],
      ["linux/arm64", "pushed", 1],
    ]);
    expect(published.platforms[0]?.tags_written).toEqual([
      "1.2.3_20250102030405",
      "1.2.3",
      "1.2",
      "1",
      "latest",
    ]);
    expect(published.platforms[0]?.layer_reuse).toEqual({ mounted: 0, uploaded: 1, verified: 0 });
    expect(published.cascade_tags_written).toEqual(["1.2.3", "1.2", "1", "latest"]);

    expect((await repo("whole").listTags()).sort()).toEqual(
      ["1", "1.2", "1.2.3", "1.2.3_20250102030405", "latest"].sort(),
    );
    for (const tag of ["1.2.3_20250102030405", "1.2.3", "1.2", "1", "latest"]) {
      const index = await indexAt("whole", tag);
      expect(platformsOf(index)).toEqual(["amd64", "arm64"]);
      expect(index.annotations).toEqual({
        [SOURCE_ANNOTATION]: "https://forge.example/acme/mirrors",
        [REVISION_ANNOTATION]: "pinned",
        "org.example.team": "tools",
      });
    }
  });

  test("outside CI no annotation is written, and a re-push reuses the layers already there", async () => {
    await run("plain").result;
    const again = await run("plain", { primaryTag: "1.2.3_20250103000000" }).result;
    expect(again.platforms.map((p) => p.layer_reuse)).toEqual([
      { mounted: 0, uploaded: 0, verified: 1 },
      { mounted: 0, uploaded: 0, verified: 1 },
    ]);
    expect((await indexAt("plain", "latest")).annotations).toBeUndefined();
    expect((await indexAt("plain", "1.2.3_20250103000000")).annotations).toBeUndefined();
  });

  test("a platform's layers go into its manifest in the order given", async () => {
    const published = await run("layers", {
      platforms: [{ platform: "linux/amd64", layers: [amd64, arm64], metadata: defaultMetadata() }],
    }).result;
    expect(published.platforms[0]).toMatchObject({ status: "pushed" });
    expect(published.platforms[0]?.layer_reuse).toEqual({ mounted: 0, uploaded: 2, verified: 0 });
    const [entry] = (await indexAt("layers", "1.2.3_20250102030405")).manifests;
    const stored = entry ? await repo("layers").fetchManifest(entry.digest) : undefined;
    const manifest = JSON.parse(stored?.bytes.toString("utf8") ?? "{}") as {
      layers?: Array<{ digest: string }>;
    };
    const digests = await Promise.all([amd64, arm64].map(async (path) => sha256Digest(await readFile(path))));
    expect(manifest.layers?.map((l) => l.digest)).toEqual(digests);
  });

  test("the platforms are pushed side by side, the tags once they are all in; results in the version's order", async () => {
    const i386 = await makeBundle(temp.path, "386", { "bin/tool": "#!/bin/sh\necho 386\n" });
    const bundles = [amd64, arm64, i386];
    const layers = await Promise.all(bundles.map(async (path) => sha256Digest(await readFile(path))));
    // the first layer upload waits for another to start: pushed one platform at a time, none
    // would, and it goes on after 20 s (the test then fails on `released`, not on a timeout)
    const events: string[] = [];
    let anotherStarted = () => {};
    const another = new Promise<string>((resolve) => {
      anotherStarted = () => resolve("by another upload");
    });
    let released: string | undefined;
    const inner = repo("side-by-side");
    const target = new Proxy(inner, {
      get(real, key) {
        if (key === "pushBlob")
          return async (source: BlobSource, options?: Parameters<Target["pushBlob"]>[1]) => {
            const at = layers.indexOf(source.digest);
            if (at >= 0) {
              events.push(`layer ${at}`);
              if (released === undefined) {
                released = "waiting";
                released = await Promise.race([another, delay(20_000, "after 20 s")]);
              } else anotherStarted();
            }
            return real.pushBlob(source, options);
          };
        if (key === "pushManifest")
          return async (...args: Parameters<Target["pushManifest"]>) => {
            events.push(args[2] === undefined ? "manifest" : `tag ${args[2]}`);
            return real.pushManifest(...args);
          };
        const value = Reflect.get(real, key, real);
        return typeof value === "function" ? value.bind(real) : value;
      },
    });
    const published = await run("side-by-side", {
      target,
      platforms: ["linux/amd64", "linux/arm64", "linux/386"].map((platform, i) => ({
        platform,
        layers: [bundles[i] as string],
        metadata: defaultMetadata(),
      })),
    }).result;
    expect(released).toBe("by another upload");
    // every layer goes up before any manifest is in (three platforms fit the concurrency), and no
    // tag names a platform before the three manifests are in
    expect(events.slice(0, 3).sort()).toEqual(["layer 0", "layer 1", "layer 2"]);
    const firstTag = events.findIndex((e) => e.startsWith("tag "));
    expect(events.slice(3, firstTag)).toEqual(["manifest", "manifest", "manifest"]);
    expect(events.slice(firstTag)).toEqual([
      "tag 1.2.3_20250102030405",
      "tag 1.2",
      "tag 1",
      "tag latest",
      "tag 1.2.3",
    ]);
    expect(published.platforms.map((p) => [p.platform, p.status])).toEqual([
      ["linux/amd64", "pushed"],
      ["linux/arm64", "pushed"],
      ["linux/386", "pushed"],
    ]);
    expect(published.cascade_tags_written).toEqual(["1.2.3", "1.2", "1", "latest"]);
    expect(platformsOf(await indexAt("side-by-side", "latest"))).toEqual(["386", "amd64", "arm64"]);
  });

  test("cascade: false publishes the primary tag only", async () => {
    const published = await run("no-cascade", { spec: { ...spec, cascade: { enabled: false } } }).result;
    expect(published.cascade).toBe(false);
    expect(published.cascade_tags_written).toEqual([]);
    expect(await repo("no-cascade").listTags()).toEqual(["1.2.3_20250102030405"]);
  });

  test("a missing bundle keeps the rolling tags away; the green platform gets the primary tag only", async () => {
    const { result, lines } = run("partial", {
      platforms: [
        { platform: "linux/amd64", layers: [amd64], metadata: defaultMetadata() },
        { platform: "linux/arm64", layers: [join(temp.path, "gone.tar.zst")], metadata: defaultMetadata() },
      ],
    });
    const published = await result;
    expect(published.cascade).toBe(false);
    expect(published.cascade_tags_written).toEqual([]);
    const [green, red] = published.platforms;
    expect(green).toMatchObject({ status: "pushed", tags_written: ["1.2.3_20250102030405"] });
    expect(red).toMatchObject({ platform: "linux/arm64", status: "failed", attempts: 0, tags_written: [] });
    expect(red?.error?.exit_code).toBe(ExitCode.Data);
    expect(red?.error?.message).toContain("gone.tar.zst: no such file");
    expect(lines.some((l) => l.includes("linux/arm64 failed in this run; rolling tags withheld"))).toBe(true);
    expect(await repo("partial").listTags()).toEqual(["1.2.3_20250102030405"]);
    expect(platformsOf(await indexAt("partial", "1.2.3_20250102030405"))).toEqual(["amd64"]);
  });

  test("a corrupt bundle, or a platform that failed before the push, withholds the rolling tags too", async () => {
    const corrupt = join(temp.path, "corrupt.tar.zst");
    await writeFile(corrupt, "this is not a zstd frame");
    const published = await run("corrupt", {
      platforms: [
        { platform: "linux/amd64", layers: [corrupt], metadata: defaultMetadata() },
        { platform: "linux/arm64", layers: [arm64], metadata: defaultMetadata() },
        { platform: "darwin/arm64", failure: new PkgError(ExitCode.Failed, "digest mismatch for tool.tgz") },
      ],
    }).result;
    expect(published.platforms.map((p) => [p.platform, p.status, p.error?.exit_code])).toEqual([
      ["linux/amd64", "failed", ExitCode.Data],
      ["linux/arm64", "pushed", undefined],
      ["darwin/arm64", "failed", ExitCode.Failed],
    ]);
    expect(published.platforms[0]?.error?.message).toContain("not a tar+zstd or tar+xz bundle");
    expect(published.platforms[2]?.error?.message).toBe("digest mismatch for tool.tgz");
    expect(await repo("corrupt").listTags()).toEqual(["1.2.3_20250102030405"]);
  });

  test("a Python source's older release published again leaves latest on a newer post-release", async () => {
    const python = { ...spec, source: { type: "pypi" as const, package: "tool", indexes: [] } };
    const one = (version: string, primaryTag: string, specOf: PublishVersionOptions["spec"] = python) =>
      run("pep440-latest", {
        version,
        primaryTag,
        spec: specOf,
        platforms: [{ platform: "linux/amd64", layers: [amd64], metadata: defaultMetadata() }],
      }).result;
    await one("1.0", "1.0_20250101000000");
    const post = await one("1.0.post1", "1.0.post1_20250102000000");
    expect(post.cascade_tags_written).toEqual(["latest"]);
    const latestDigest = async () => (await repo("pep440-latest").fetchManifest("latest"))?.descriptor.digest;
    const held = await latestDigest();
    expect(held).toBe(
      (await repo("pep440-latest").fetchManifest("1.0.post1_20250102000000"))?.descriptor.digest,
    );
    // 1.0 again (a platform added, say): its exact and series tags move, latest does not
    const again = await one("1.0", "1.0_20250103000000");
    expect(again.cascade_tags_written).toEqual(["1.0", "1"]);
    expect(await latestDigest()).toBe(held);
    // a source without PEP 440 versions reads no tag list for it, and the grammar's cascade decides
    const forge = await one("1.0", "1.0_20250104000000", spec);
    expect(forge.cascade_tags_written).toContain("latest");
  });
});
