import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { ExitCode } from "@pkg/common";
import { memoryBlob, openRegistry, type RegistryTargetOptions, sha256Digest } from "@pkg/oci";
import { defaultMetadata } from "@pkg/package";
import {
  type FaultAction,
  type FaultPlan,
  type FaultProxy,
  type RecordedRequest,
  type RunningRegistry,
  startFaultProxy,
  startRegistry,
  type TempDir,
  tempDir,
} from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { type Deadline, withAttemptDeadline } from "../src/publish/attempt-deadline.js";
import { type PublishVersionOptions, publishVersion } from "../src/publish/publish-version.js";
import { makeBundle, recordingLogger, recordingSleep } from "./support/publish-support.js";

let registry: RunningRegistry;
let guarded: RunningRegistry;
let proxy: FaultProxy;
let temp: TempDir;
let bundle: string;

beforeAll(async () => {
  [registry, guarded, temp] = await Promise.all([
    startRegistry({ auth: "none" }),
    startRegistry({ auth: "basic" }),
    tempDir("publish-retry-"),
  ]);
  proxy = await startFaultProxy(registry.url);
  bundle = await makeBundle(temp.path, "tool", { "bin/tool": "#!/bin/sh\necho hi\n" });
});
afterEach(() => proxy.setPlan(() => "pass"));
afterAll(async () => {
  await proxy?.stop();
  await Promise.all([registry?.stop(), guarded?.stop()]);
  await temp?.remove();
});

const unavailable: FaultAction = {
  status: 503,
  headers: { "content-type": "application/json" },
  body: '{"errors":[{"code":"UNAVAILABLE","message":"try later"}]}',
};

/** A manifest put by digest: one per push attempt, once its blobs are in. */
const manifestByDigest = (request: RecordedRequest) =>
  request.method === "PUT" && request.url.includes("/manifests/sha256:");

/**
 * Answers the first `times` requests to repository `retry/<name>` that `match` with a 503 (by
 * default its manifest puts: one failed attempt each, whatever the blobs' uploads overlap). A
 * request of an earlier test that reaches the proxy late is never counted.
 */
function failFirst(
  times: number,
  name: string,
  match: (request: RecordedRequest) => boolean = manifestByDigest,
): FaultPlan {
  let left = times;
  return (request) =>
    request.url.startsWith(`/v2/retry/${name}/`) && match(request) && left-- > 0 ? unavailable : "pass";
}

// the client's own retries are off, so every transient failure reaches the push retry
const clientOptions: RegistryTargetOptions = {
  plainHttp: true,
  credential: null,
  env: {},
  retry: { retries: 0 },
};
const throughProxy = (name: string) => openRegistry(`${proxy.host}/retry/${name}`, clientOptions);

function run(name: string, maxRetries: number, overrides: Partial<PublishVersionOptions> = {}) {
  const { log, lines } = recordingLogger();
  const { sleep, waits } = recordingSleep();
  const result = publishVersion({
    target: throughProxy(name),
    version: "2.0.0",
    platforms: [{ platform: "linux/amd64", layers: [bundle], metadata: defaultMetadata() }],
    spec: {
      cascade: { enabled: true },
      concurrency: {
        max_downloads: 8,
        max_bundles: 1,
        rate_limit_ms: 0,
        max_retries: maxRetries,
        compression_threads: 0,
      },
    },
    primaryTag: "2.0.0_20250601000000",
    env: {},
    sleep,
    random: () => 0.5,
    log,
    ...overrides,
  });
  return { result, lines, waits };
}

const attemptLines = (lines: string[]) => lines.filter((l) => l.startsWith("push attempt "));

describe("push retries", () => {
  test("a transient failure is retried after 1 s, then 2 s, and the push completes", async () => {
    proxy.setPlan(failFirst(2, "transient"));
    const { result, lines, waits } = run("transient", 3);
    const published = await result;
    expect(published.platforms[0]).toMatchObject({ status: "pushed", attempts: 3 });
    expect(published.cascade_tags_written).toEqual(["2.0.0", "2.0", "2", "latest"]);
    expect(waits).toEqual([1000, 2000]);
    expect(attemptLines(lines).map((l) => l.split(":")[0])).toEqual(["push attempt 2/4", "push attempt 3/4"]);
    expect(
      proxy.requests.filter((r) => r.url.includes("/retry/transient/") && r.status === 503),
    ).toHaveLength(2);
    const direct = openRegistry(`${registry.host}/retry/transient`, clientOptions);
    expect((await direct.listTags()).sort()).toEqual(["2", "2.0", "2.0.0", "2.0.0_20250601000000", "latest"]);
  });

  test("the jitter stays within 10% of the nominal wait, and a capped wait lands in 27 to 33 s", async () => {
    proxy.setPlan(failFirst(6, "capped"));
    const randoms = [0, 0.999_999, 0, 0.999_999, 0.5, 0];
    const { result, waits, lines } = run("capped", 6, { random: () => randoms.shift() ?? 0.5 });
    expect((await result).platforms[0]).toMatchObject({ status: "pushed", attempts: 7 });
    expect(waits).toEqual([900, 2200, 3600, 8800, 16_000, 27_000]);
    expect(attemptLines(lines)).toHaveLength(6);
    expect(attemptLines(lines)[5]).toMatch(/^push attempt 7\/7:/);
  });

  test("an exhausted budget gives up naming concurrency.max_retries", async () => {
    proxy.setPlan(() => unavailable);
    const { result, lines, waits } = run("exhausted", 2);
    const published = await result;
    const [platform] = published.platforms;
    expect(platform).toMatchObject({ status: "failed", attempts: 3, tags_written: [] });
    expect(platform?.error?.exit_code).toBe(ExitCode.Transient);
    expect(platform?.error?.message).toMatch(
      /gave up after 3 attempts: the retry budget concurrency\.max_retries = 2 is exhausted; last failure: .*503/,
    );
    expect(waits).toEqual([1000, 2000]);
    expect(attemptLines(lines).map((l) => l.split(":")[0])).toEqual(["push attempt 2/3", "push attempt 3/3"]);
    expect(published.cascade_tags_written).toEqual([]);
  });

  test("max_retries 0 makes a single attempt", async () => {
    proxy.setPlan(failFirst(1, "single"));
    const { result, lines, waits } = run("single", 0);
    const [platform] = (await result).platforms;
    expect(platform).toMatchObject({ status: "failed", attempts: 1 });
    expect(platform?.error?.message).toContain(
      "gave up after 1 attempt: the retry budget concurrency.max_retries = 0",
    );
    expect(waits).toEqual([]);
    expect(attemptLines(lines)).toEqual([]);
  });

  test("after a push fails for good, the later platforms of the version move no rolling tag", async () => {
    // the first platform's layer is refused; the two platforms' uploads overlap
    const first = sha256Digest(await readFile(bundle));
    proxy.setPlan(failFirst(1, "mid-version", (request) => request.url.includes(first)));
    const second = await makeBundle(temp.path, "second", { "bin/tool": "#!/bin/sh\necho arm64\n" });
    const { result } = run("mid-version", 0, {
      platforms: [
        { platform: "linux/amd64", layers: [bundle], metadata: defaultMetadata() },
        { platform: "linux/arm64", layers: [second], metadata: defaultMetadata() },
      ],
    });
    const published = await result;
    expect(published.cascade).toBe(true);
    expect(published.platforms.map((p) => [p.status, p.tags_written])).toEqual([
      ["failed", []],
      ["pushed", ["2.0.0_20250601000000"]],
    ]);
    expect(published.cascade_tags_written).toEqual([]);
    const direct = openRegistry(`${registry.host}/retry/mid-version`, clientOptions);
    expect(await direct.listTags()).toEqual(["2.0.0_20250601000000"]);
  });

  test("an auth rejection (80) is never retried", async () => {
    const target = openRegistry(`${guarded.host}/retry/auth`, {
      ...clientOptions,
      credential: { kind: "basic", username: "intruder", password: "wrong-password", source: "test" },
    });
    const { result, lines, waits } = run("auth", 3, { target });
    const [platform] = (await result).platforms;
    expect(platform).toMatchObject({ status: "failed", attempts: 1 });
    expect(platform?.error?.exit_code).toBe(ExitCode.AuthRejected);
    expect(platform?.error?.message).toContain("with exit 80 (auth-rejected), which is never retried");
    expect(platform?.error?.message).not.toContain("wrong-password");
    expect(waits).toEqual([]);
    expect(attemptLines(lines)).toEqual([]);
  });

  test("an unreachable registry (69) is never retried", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const address = closed.address();
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    if (address === null || typeof address === "string") throw new Error("no port");
    const target = openRegistry(`127.0.0.1:${address.port}/retry/gone`, clientOptions);
    const { result, waits } = run("gone", 3, { target });
    const [platform] = (await result).platforms;
    expect(platform).toMatchObject({ status: "failed", attempts: 1 });
    expect(platform?.error?.exit_code).toBe(ExitCode.Unavailable);
    expect(platform?.error?.message).toContain("with exit 69 (unavailable), which is never retried");
    expect(waits).toEqual([]);
  });

  test("an attempt that overruns its 3600 s limit is abandoned and retried", async () => {
    // the first request of the first attempt hangs; that attempt's deadline passes once the
    // request got to the proxy, the second attempt's never does
    let held = false;
    let reached: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      reached = resolve;
    });
    proxy.setPlan(() => {
      if (held) return "pass";
      held = true;
      reached();
      return { delayMs: 600_000 };
    });
    const limits: number[] = [];
    const deadline: Deadline = (ms, signal) => {
      limits.push(ms);
      if (limits.length === 1) return arrived;
      return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason)));
    };
    const { result, lines, waits } = run("deadline", 3, { deadline });
    const published = await result;
    expect(published.platforms[0]).toMatchObject({ status: "pushed", attempts: 2 });
    // the platform's two attempts, then the tags' own
    expect(limits).toEqual([3_600_000, 3_600_000, 3_600_000]);
    expect(waits).toEqual([1000]);
    expect(lines.some((l) => l.includes("ran into its 3600 s time limit; retrying in 1.0 s"))).toBe(true);
    expect(attemptLines(lines).map((l) => l.split(":")[0])).toEqual(["push attempt 2/4"]);
    const direct = openRegistry(`${registry.host}/retry/deadline`, clientOptions);
    expect(await direct.listTags()).toContain("2.0.0_20250601000000");
  });

  test("the deadline cuts the overrunning attempt's request in flight, and the next attempt succeeds", async () => {
    // the blob's HEAD is held by the proxy for 600 s; the deadline passes once it got there
    let held: RecordedRequest | undefined;
    let reached: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      reached = resolve;
    });
    proxy.setPlan((request) => {
      if (held !== undefined || request.method !== "HEAD") return "pass";
      held = request;
      reached();
      return { delayMs: 600_000 };
    });
    const target = throughProxy("deadline-cut");
    const blob = memoryBlob(randomBytes(1000));
    let inFlight: Promise<unknown> = Promise.resolve();
    const attempt = withAttemptDeadline(
      target,
      3_600_000,
      (view) => {
        inFlight = view.pushBlob(blob);
        return inFlight;
      },
      () => arrived,
    );
    const overrun = { exitCode: ExitCode.Transient, message: expect.stringMatching(/3600 s time limit/) };
    await expect(attempt).rejects.toMatchObject(overrun);
    // the push itself rejected with the deadline's error, while the proxy still held its request
    await expect(inFlight).rejects.toMatchObject(overrun);
    expect(held?.status).toBeUndefined();
    const retried = await withAttemptDeadline(target, 3_600_000, (view) => view.pushBlob(blob));
    expect(retried).toBe("uploaded");
    expect(await target.blobSize(blob.digest)).toBe(blob.size);
  });
});
