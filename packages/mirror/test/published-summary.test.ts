import { type Logger, silentLogger } from "@pkg/common";
import { MediaType, memoryBlob, openLayout, openRegistry, type Target } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import {
  type FaultProxy,
  type RunningRegistry,
  startFaultProxy,
  startRegistry,
  type TempDir,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPublished } from "../src/plan/published.js";
import { readPublishedSummary } from "../src/plan/read-summary.js";
import { EMPTY_JSON, summaryManifest } from "../src/plan/summary-manifest.js";
import { observeIndexes } from "../src/publish/index-observer.js";
import { type SummaryUpdate, updatePublishedSummary } from "../src/publish/published-summary.js";
import { publishIndexes } from "./support/publish-indexes.js";
import { publishWithSummary } from "./support/publish-with-summary.js";

let registry: RunningRegistry;
let proxy: FaultProxy;
let work: TempDir;
/** acme/summary, published with its summary before the tests. */
let written: SummaryUpdate;

afterAll(async () => {
  await proxy?.stop();
  await registry?.stop();
  await work?.remove();
});

const fixtures = [
  { tags: ["1.0.0", "1.0.0_20250101120000"], platforms: ["linux/amd64", "darwin/arm64"] },
  { tags: ["1.1.0", "1.1.0_20250201120000", "1.1", "1", "latest"], platforms: ["linux/amd64"] },
  { tags: ["1.2.0_20250301120000"], platforms: ["linux/arm64"] },
];
const asked = ["1.0.0", "1.1.0", "1.2.0", "2.0.0"];

beforeAll(async () => {
  registry = await startRegistry();
  proxy = await startFaultProxy(registry.url);
  work = await tempDir("pkg-mirror-summary-");
  written = await publishWithSummary(direct("acme/summary"), fixtures);
}, 60_000);
const expected = {
  "1.0.0": ["darwin/arm64", "linux/amd64"],
  "1.1.0": ["linux/amd64"],
  "1.2.0": ["linux/arm64"],
};

/** A repository of its own, reached through the recording proxy. */
function viaProxy(repository: string): Target {
  return openRegistry({ host: proxy.host, repository });
}

function direct(repository: string): Target {
  return openRegistry({ host: registry.host, repository });
}

/** The manifest paths (`/v2/<repo>/manifests/<ref>` -> ref) requested while `work` ran. */
async function manifestReads<T>(work: () => Promise<T>): Promise<{ result: T; refs: string[] }> {
  const mark = proxy.requests.length;
  const result = await work();
  const refs = proxy.requests
    .slice(mark)
    .flatMap((r) => (r.url.includes("/manifests/") ? [r.url.slice(r.url.lastIndexOf("/") + 1)] : []));
  return { result, refs };
}

function platformsOf(set: Map<string, Set<string>> | undefined) {
  return Object.fromEntries([...(set ?? [])].map(([v, p]) => [v, [...p].sort()]));
}

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...silentLogger, warn: (message) => warnings.push(message), warnings };
}

/** Tags a hand-made summary manifest whose config blob is `config`. */
async function pushSummary(target: Target, config: Buffer, artifact?: string): Promise<void> {
  const blob = memoryBlob(config);
  const empty = memoryBlob(EMPTY_JSON);
  await target.pushBlob(blob);
  await target.pushBlob(empty);
  const manifest = JSON.parse(summaryManifest(blob, empty).toString()) as { artifactType: string };
  if (artifact) manifest.artifactType = artifact;
  await target.pushManifest(
    Buffer.from(JSON.stringify(manifest)),
    MediaType.ImageManifest,
    PUBLISHED_SUMMARY_TAG,
  );
}

describe("the published summary", () => {
  it("is written from the indexes pushed, and check then reads no index per version", async () => {
    expect(written).toMatchObject({ status: "written", tags: 7 });
    const summary = await readPublishedSummary(direct("acme/summary"));
    expect(summary.status).toBe("valid");
    const tags = summary.status === "valid" ? summary.tags : new Map();
    // every record tag, with the digest the tag really has; never `latest`
    expect([...tags.keys()].sort()).toEqual(
      fixtures.flatMap((f) => f.tags.filter((t) => t !== "latest")).sort(),
    );
    for (const [tag, record] of tags) {
      expect((await direct("acme/summary").fetchManifest(tag))?.descriptor.digest, tag).toBe(record.digest);
    }

    const { result: state, refs } = await manifestReads(() =>
      readPublished(viaProxy("acme/summary"), [{ versions: asked }]),
    );
    expect(platformsOf(state.sets[0])).toEqual(expected);
    expect(state).toMatchObject({ summary: "used", summaryHits: 3, indexReads: 0 });
    expect(refs).toEqual([PUBLISHED_SUMMARY_TAG]);
  });

  it("reads a tag pushed after the summary on its own, and ignores a tag deleted since", async () => {
    const repo = "acme/moved";
    await publishWithSummary(direct(repo), [
      ...fixtures,
      { tags: ["0.9.0"], platforms: ["windows/amd64"] }, // an index of its own, to delete
    ]);
    await publishIndexes(direct(repo), [{ tags: ["2.0.0"], platforms: ["linux/riscv64"] }]);
    const gone = await direct(repo).fetchManifest("0.9.0");
    const deleted = await fetch(`${registry.url}/v2/${repo}/manifests/${gone?.descriptor.digest}`, {
      method: "DELETE",
    });
    expect(deleted.status).toBe(202);

    const observer = observeIndexes(viaProxy(repo));
    const { result: state, refs } = await manifestReads(() =>
      readPublished(observer.target, [{ versions: [...asked, "0.9.0"] }]),
    );
    expect(platformsOf(state.sets[0])).toEqual({ ...expected, "2.0.0": ["linux/riscv64"] });
    expect(state).toMatchObject({ summary: "used", summaryHits: 3, indexReads: 1 });
    expect(refs.sort()).toEqual(["2.0.0", PUBLISHED_SUMMARY_TAG]);

    // what the read saw goes into the summary; the deleted tag leaves it
    expect(await updatePublishedSummary(direct(repo), observer, silentLogger)).toMatchObject({
      status: "written",
    });
    const summary = await readPublishedSummary(direct(repo));
    const tags = summary.status === "valid" ? [...summary.tags.keys()] : [];
    expect(tags).toContain("2.0.0");
    expect(tags).not.toContain("0.9.0");
    const again = await readPublished(viaProxy(repo), [{ versions: asked }]);
    expect(again).toMatchObject({ summaryHits: 4, indexReads: 0 });
  });

  it("names each platform's config digest, and keeps naming it when a later run only reads the index", async () => {
    const summary = await readPublishedSummary(direct("acme/summary"));
    const tags = summary.status === "valid" ? summary.tags : new Map();
    // publishIndexes lists one package manifest for every platform: its config is `{}`
    const config = memoryBlob(Buffer.from("{}")).digest;
    for (const [tag, record] of tags) {
      expect(Object.fromEntries(record.configs ?? []), tag).toEqual(
        Object.fromEntries(record.platforms.map((p: string) => [p, config])),
      );
    }
    // a run that reads the indexes (never their manifests) learns no config itself: the
    // summary's own, for the same index digests, stay
    const observer = observeIndexes(direct("acme/summary"));
    await readPublished(observer.target, [{ versions: asked }], { verifyPublished: true });
    expect([...observer.seen.values()].every((record) => record?.configs === undefined)).toBe(true);
    expect(await updatePublishedSummary(direct("acme/summary"), observer, silentLogger)).toEqual({
      status: "unchanged",
    });
  });

  it.each([
    [
      "a document that is not a summary",
      Buffer.from('{"schema":1,"tags":{"1.1.0":{"digest":"nope"}}}'),
      undefined,
      /no sha256 digest/,
    ],
    [
      "a manifest of another artifact type",
      Buffer.from('{"schema":1,"tags":{}}'),
      "application/vnd.other.v1",
      /not a pkg published-summary manifest/,
    ],
  ])("ignores %s with a warning and reads the indexes", async (_what, config, artifact, reason) => {
    const repo = `acme/corrupt-${artifact ? "type" : "doc"}`;
    await publishIndexes(direct(repo), fixtures);
    await pushSummary(direct(repo), config, artifact);
    const log = recordingLog();
    const state = await readPublished(viaProxy(repo), [{ versions: asked }], { log });
    expect(platformsOf(state.sets[0])).toEqual(expected);
    expect(state).toMatchObject({ summary: "invalid", summaryHits: 0, indexReads: 3 });
    expect(log.warnings).toEqual([
      expect.stringMatching(/ignoring the published summary \(.*\); reading the image indexes/),
    ]);
    expect(log.warnings[0]).toMatch(reason);

    // the next write replaces it
    const observer = observeIndexes(direct(repo));
    await readPublished(observer.target, [{ versions: asked }], { verifyPublished: true });
    expect(await updatePublishedSummary(direct(repo), observer, log)).toMatchObject({ status: "written" });
    expect(log.warnings[1]).toMatch(/replacing the published summary/);
    expect((await readPublishedSummary(direct(repo))).status).toBe("valid");
  });

  it("is not read at all with verifyPublished: every index is", async () => {
    const { result: state, refs } = await manifestReads(() =>
      readPublished(viaProxy("acme/summary"), [{ versions: asked }], { verifyPublished: true }),
    );
    expect(platformsOf(state.sets[0])).toEqual(expected);
    expect(state).toMatchObject({ summary: "ignored", summaryHits: 0, indexReads: 3 });
    expect(refs).not.toContain(PUBLISHED_SUMMARY_TAG);
    expect(refs).toHaveLength(3);
  });

  it("costs nothing when no asked version has a tag", async () => {
    const { result: state, refs } = await manifestReads(() =>
      readPublished(viaProxy("acme/summary"), [{ versions: ["7.0.0"] }]),
    );
    expect(state).toMatchObject({ summary: "unneeded", summaryHits: 0, indexReads: 0 });
    expect(refs).toEqual([]);
  });

  it("works the same in an OCI image layout", async () => {
    const layout = openLayout(work.path, "acme/tool");
    expect(await publishWithSummary(layout, fixtures)).toMatchObject({ status: "written", tags: 7 });
    const state = await readPublished(layout, [{ versions: asked }]);
    expect(platformsOf(state.sets[0])).toEqual(expected);
    expect(state).toMatchObject({ summary: "used", summaryHits: 3, indexReads: 0 });
    // the reserved tag is no version: listing it changes nothing above, and it reads back as the summary
    expect(await layout.listTags()).toContain(PUBLISHED_SUMMARY_TAG);
  });

  it("leaves the tags and the old summary as they were when its write fails, with a warning", async () => {
    const repo = "acme/unwritable";
    await publishWithSummary(direct(repo), fixtures.slice(0, 1));
    const before = (await direct(repo).fetchManifest(PUBLISHED_SUMMARY_TAG))?.descriptor.digest;
    proxy.setPlan((request) =>
      request.method === "PUT" && request.url.endsWith(`/manifests/${PUBLISHED_SUMMARY_TAG}`)
        ? { status: 500, body: '{"errors":[{"code":"UNKNOWN","message":"disk full"}]}' }
        : "pass",
    );
    try {
      const target = openRegistry({ host: proxy.host, repository: repo }, { retry: { retries: 0 } });
      const observer = observeIndexes(target);
      await publishIndexes(observer.target, fixtures.slice(1));
      const log = recordingLog();
      const update = await updatePublishedSummary(target, observer, log);
      expect(update.status).toBe("failed");
      expect(log.warnings).toEqual([expect.stringMatching(/the published summary was not updated/)]);
    } finally {
      proxy.setPlan(() => "pass");
    }
    expect((await direct(repo).fetchManifest(PUBLISHED_SUMMARY_TAG))?.descriptor.digest).toBe(before);
    // the old summary still covers 1.0.0; the rest is read
    const state = await readPublished(direct(repo), [{ versions: asked }]);
    expect(platformsOf(state.sets[0])).toEqual(expected);
    expect(state).toMatchObject({ summary: "used", summaryHits: 1, indexReads: 2 });
  });
});
