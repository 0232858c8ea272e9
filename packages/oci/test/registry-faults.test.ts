import { randomBytes } from "node:crypto";
import {
  type FaultAction,
  type FaultProxy,
  type RecordedRequest,
  type RunningRegistry,
  randomFaults,
  startFaultProxy,
  startRegistry,
} from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { sha256Digest } from "../src/digest.js";
import { MAX_CHUNK_SIZE } from "../src/limits.js";
import { openRegistry, type RegistryTargetOptions } from "../src/registry.js";
import { MediaType } from "../src/types.js";
import { bufferSource, imageManifest, readAll, withoutSchemeProbe } from "./support/helpers.js";

const MiB = 1024 * 1024;
const options = { retry: { firstDelayMs: 5, maxDelayMs: 2000 }, env: {} };

let registry: RunningRegistry;
let proxy: FaultProxy;

beforeAll(async () => {
  registry = await startRegistry({ auth: "none" });
  proxy = await startFaultProxy(registry.url);
});
afterEach(() => {
  proxy.setPlan(() => "pass");
});
afterAll(async () => {
  await proxy?.stop();
  await registry?.stop();
});

/** A plan failing the first `times` requests that `match` with `action`. */
function failFirst(times: number, match: (r: RecordedRequest) => boolean, action: FaultAction) {
  let left = times;
  return (request: RecordedRequest): FaultAction => {
    if (left > 0 && match(request)) {
      left -= 1;
      return action;
    }
    return "pass";
  };
}

const unavailable: FaultAction = {
  status: 503,
  headers: { "content-type": "application/json" },
  body: '{"errors":[{"code":"UNAVAILABLE","message":"try later"}]}',
};
const target = (repository: string, extra: RegistryTargetOptions = {}) =>
  openRegistry(`${proxy.host}/${repository}`, { ...options, ...extra });

test("5xx, 429 with Retry-After and dropped connections are retried until the push succeeds", async () => {
  proxy.setPlan(failFirst(2, (r) => r.method === "HEAD", unavailable));
  const repo = target("faults/simple");
  const blob = bufferSource(randomBytes(1000));
  expect(await repo.pushBlob(blob)).toBe("uploaded");

  proxy.setPlan(failFirst(1, (r) => r.method === "PUT", { status: 429, headers: { "retry-after": "1" } }));
  const config = bufferSource(Buffer.from("{}"));
  await repo.pushBlob(config);
  const descriptor = await repo.pushManifest(imageManifest(config, [blob]), MediaType.ImageManifest, "v1");
  expect(proxy.requests.some((r) => r.status === 429)).toBe(true);

  proxy.setPlan(failFirst(2, (r) => r.method === "GET", "drop"));
  expect((await repo.fetchManifest("v1"))?.descriptor).toEqual(descriptor);
});

test("a chunk lost in transit is resent from where the registry says the upload stands", async () => {
  let patches = 0;
  proxy.setPlan((request) => {
    if (request.method !== "PATCH") return "pass";
    patches += 1;
    return patches === 2 ? "drop" : patches === 3 ? unavailable : "pass";
  });
  const start = proxy.requests.length;
  const repo = target("faults/chunks", { uploadMode: "chunked" });
  const bytes = randomBytes(8 * MiB);
  const blob = bufferSource(bytes);
  expect(await repo.pushBlob(blob)).toBe("uploaded");
  const log = proxy.requests.slice(start);
  expect(log.some((r) => r.method === "GET" && r.url.includes("/blobs/uploads/"))).toBe(true);
  expect(blob.opened).toBe(1);
  expect((await readAll(await repo.fetchBlob(blob.digest, blob.size))).equals(bytes)).toBe(true);
});

test.each([
  ["chunked", 2],
  ["stream", 1],
] as const)("a lost upload session restarts the upload from scratch (%s)", async (uploadMode, failing) => {
  let patches = 0;
  proxy.setPlan((request) => {
    if (request.method === "PATCH" && ++patches === failing) {
      return {
        status: 404,
        headers: { "content-type": "application/json" },
        body: '{"errors":[{"code":"BLOB_UPLOAD_UNKNOWN","message":"gone"}]}',
      };
    }
    return "pass";
  });
  const repo = target(`faults/restart-${uploadMode}`, { uploadMode });
  const bytes = randomBytes(7 * MiB);
  const blob = bufferSource(bytes);
  expect(await repo.pushBlob(blob)).toBe("uploaded");
  expect(blob.opened).toBe(2);
  expect(repo.client.chunkedUploads).toBe(false);
  expect((await readAll(await repo.fetchBlob(blob.digest))).equals(bytes)).toBe(true);
});

/** The PATCH requests from `start` on: Content-Range (absent when streamed), length, status. */
function patchesSince(start: number) {
  return proxy.requests
    .slice(start)
    .filter((r) => r.method === "PATCH")
    .map((r) => ({
      range: r.headers["content-range"],
      length: Number(r.headers["content-length"]),
      status: r.status,
    }));
}

const chunks = (patches: ReturnType<typeof patchesSince>) =>
  patches.length > 0 &&
  patches.every((p) => p.range !== undefined && p.length <= MAX_CHUNK_SIZE && p.status === 202);

test("a streamed PATCH refused with 413 goes on in chunks, and so do later uploads of the client", async () => {
  const tooLarge: FaultAction = { status: 413, body: "<html>413 Request Entity Too Large</html>" };
  proxy.setPlan(failFirst(1, (r) => r.method === "PATCH", tooLarge));
  const repo = target("faults/too-large");
  const first = bufferSource(randomBytes(10 * MiB));
  let start = proxy.requests.length;
  expect(await repo.pushBlob(first)).toBe("uploaded");
  const [refused, ...rest] = patchesSince(start);
  expect(refused).toEqual({ range: undefined, length: first.size, status: 413 });
  expect(chunks(rest)).toBe(true);
  expect(
    proxy.requests.slice(start).some((r) => r.method === "GET" && r.url.includes("/blobs/uploads/")),
  ).toBe(true);
  expect(sha256Digest(await readAll(await repo.fetchBlob(first.digest)))).toBe(first.digest);

  const second = bufferSource(randomBytes(7 * MiB));
  start = proxy.requests.length;
  expect(await repo.pushBlob(second)).toBe("uploaded");
  expect(chunks(patchesSince(start))).toBe(true);
  expect(sha256Digest(await readAll(await repo.fetchBlob(second.digest)))).toBe(second.digest);
});

test.each([
  ["reset-mid-body", "reset-mid-body"],
  ["drop", "drop"],
  ["503", unavailable],
] as const)(
  "a streamed PATCH cut off (%s) goes on in chunks after asking the session; the blob lands intact",
  async (name, action) => {
    proxy.setPlan(failFirst(1, (r) => r.method === "PATCH", action));
    const repo = target(`faults/cut-${name}`);
    const blob = bufferSource(randomBytes(10 * MiB));
    const start = proxy.requests.length;
    expect(await repo.pushBlob(blob)).toBe("uploaded");
    // distribution 2.8 cannot say what arrived here (`0-0`, or a location bound to offset 0),
    // so the rest goes in a new session; upload-fallback.test.ts resumes part-way
    const [streamed, ...rest] = patchesSince(start);
    expect(streamed).toMatchObject({ range: undefined, length: blob.size });
    expect(chunks(rest)).toBe(true);
    const log = proxy.requests.slice(start);
    expect(log.some((r) => r.method === "GET" && r.url.includes("/blobs/uploads/"))).toBe(true);
    expect(repo.client.chunkedUploads).toBe(true);
    expect(sha256Digest(await readAll(await repo.fetchBlob(blob.digest)))).toBe(blob.digest);
  },
);

test("random faults on every kind of request: push and pull still complete", async () => {
  proxy.setPlan(
    randomFaults({
      seed: 7,
      drop: 0.1,
      serverError: 0.1,
      tooManyRequests: 0.05,
      retryAfterSeconds: 0,
      maxFaults: 10,
    }),
  );
  const start = proxy.requests.length;
  const repo = target("faults/random");
  const config = bufferSource(Buffer.from('{"x":1}'));
  const small = bufferSource(randomBytes(2000));
  const large = bufferSource(randomBytes(7 * MiB));
  for (const blob of [config, small, large]) await repo.pushBlob(blob);
  const descriptor = await repo.pushManifest(
    imageManifest(config, [small, large]),
    MediaType.ImageManifest,
    "v1",
  );
  expect((await repo.fetchManifest("v1"))?.descriptor.digest).toBe(descriptor.digest);
  expect((await readAll(await repo.fetchBlob(large.digest))).equals(large.open())).toBe(true);
  const injected = proxy.requests.slice(start).filter((r) => r.status === undefined || r.status >= 429);
  expect(injected.length).toBeGreaterThan(0);
});

test("a registry that keeps answering 503 fails with exit 75 after the bounded retries", async () => {
  proxy.setPlan(() => unavailable);
  const start = proxy.requests.length;
  const failure = target("faults/down").fetchManifest("v1");
  await expect(failure).rejects.toMatchObject({ exitCode: 75 });
  await expect(failure).rejects.toThrow(/faults\/down.*503.*UNAVAILABLE.*after 4 attempts/);
  expect(withoutSchemeProbe(proxy.requests.slice(start))).toHaveLength(4);
});

test("a download cut off mid-body errors the stream as transient", async () => {
  const repo = target("faults/cut");
  const blob = bufferSource(randomBytes(2 * MiB));
  await repo.pushBlob(blob);
  proxy.setPlan(failFirst(1, (r) => r.method === "GET", "reset-mid-body"));
  await expect(readAll(await repo.fetchBlob(blob.digest))).rejects.toMatchObject({ exitCode: 75 });
});

test("a tag listing is complete or fails: only a first page answering 404 means no tags", async () => {
  const repo = target("faults/paged", { tagPageSize: 1 });
  const notFound = (code: string): FaultAction => ({
    status: 404,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ errors: [{ code, message: "gone" }] }),
  });
  // the first page names a next one (the registry here ignores n, so the proxy pages for it)
  const firstPage: FaultAction = {
    status: 200,
    headers: {
      "content-type": "application/json",
      link: '</v2/faults/paged/tags/list?last=a&n=1>; rel="next"',
    },
    body: JSON.stringify({ name: "faults/paged", tags: ["a"] }),
  };
  const paged =
    (later: FaultAction) =>
    (r: RecordedRequest): FaultAction =>
      !r.url.includes("tags/list") ? "pass" : r.url.includes("last=") ? later : firstPage;
  proxy.setPlan(
    paged({ status: 200, headers: { "content-type": "application/json" }, body: '{"tags":["b"]}' }),
  );
  expect(await repo.listTags()).toEqual(["a", "b"]);

  // a later page answering 404 leaves the listing incomplete: never taken as every tag
  proxy.setPlan(paged(notFound("NAME_UNKNOWN")));
  await expect(repo.listTags()).rejects.toMatchObject({
    exitCode: 69,
    message: expect.stringContaining("a later page of the tag list answered 404 (NAME_UNKNOWN: gone)"),
  });

  // a first page answering 404 is a repository that does not exist (whatever code it names)
  proxy.setPlan((r) => (r.url.includes("tags/list") ? notFound("NOT_FOUND") : "pass"));
  expect(await repo.listTags()).toEqual([]);

  proxy.setPlan(() => "pass");
  expect(await target("faults/never-pushed").listTags()).toEqual([]);
});
