import { randomBytes } from "node:crypto";
import { ExitCode, PkgError } from "@pkg/common";
import {
  type FaultProxy,
  type RecordedRequest,
  type RunningRegistry,
  startFaultProxy,
  startRegistry,
} from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { openRegistry } from "../src/registry.js";
import { bufferSource } from "./support/helpers.js";

let registry: RunningRegistry;
let proxy: FaultProxy;

beforeAll(async () => {
  registry = await startRegistry({ auth: "none" });
  proxy = await startFaultProxy(registry.url);
});
afterEach(() => proxy.setPlan(() => "pass"));
afterAll(async () => {
  await proxy?.stop();
  await registry?.stop();
});

const target = (name: string) => openRegistry(`${proxy.host}/abort/${name}`, { retry: { firstDelayMs: 10 } });

/** Holds the first request whose path matches for 600 s; resolves with it once it reached the proxy. */
function holdFirst(path: RegExp): Promise<RecordedRequest> {
  let held: RecordedRequest | undefined;
  return new Promise((resolve) => {
    proxy.setPlan((request) => {
      if (held !== undefined || !path.test(request.url)) return "pass";
      held = request;
      resolve(request);
      return { delayMs: 600_000 };
    });
  });
}

test("an abort while the registry has not answered rejects at once with the signal's reason", async () => {
  const repo = target("waiting");
  await repo.listTags(); // the client has learnt the registry's scheme
  const held = holdFirst(/tags\/list/);
  const controller = new AbortController();
  const listing = repo.listTags({ signal: controller.signal });
  const request = await held;
  const reason = new PkgError(ExitCode.Transient, "test: out of time");
  controller.abort(reason);
  await expect(listing).rejects.toBe(reason);
  // rejected while the proxy still held the request: its delay had not ended
  expect(request.status).toBeUndefined();
  proxy.setPlan(() => "pass");
  expect(await repo.listTags()).toEqual([]);
});

test("an abort while a blob is being read errors the stream with the signal's reason", async () => {
  const repo = target("reading");
  const blob = bufferSource(randomBytes(8 * 1024 * 1024));
  await repo.pushBlob(blob);
  const controller = new AbortController();
  const stream = await repo.fetchBlob(blob.digest, blob.size, { signal: controller.signal });
  const reason = new PkgError(ExitCode.Transient, "test: stop reading");
  const read = (async () => {
    for await (const _chunk of stream as AsyncIterable<Buffer>) controller.abort(reason);
  })();
  await expect(read).rejects.toBe(reason);
});

test("a plain abort names the operation, exit 75", async () => {
  const repo = target("plain");
  // the scheme probe (GET /v2/) is held: waiting for it is cut too
  const held = holdFirst(/^\/v2\/$/);
  const controller = new AbortController();
  const fetching = repo.fetchManifest("latest", { signal: controller.signal });
  await held;
  controller.abort();
  await expect(fetching).rejects.toMatchObject({
    exitCode: ExitCode.Transient,
    message: expect.stringMatching(/^fetch manifest latest from .*abort\/plain: aborted$/),
  });
});
