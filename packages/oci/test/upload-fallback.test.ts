import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { startHttpServer, type TestServer } from "@pkg/testkit";
import { afterAll, beforeAll, beforeEach, expect, test } from "vitest";
import { sha256Digest } from "../src/digest.js";
import { MAX_CHUNK_SIZE } from "../src/limits.js";
import { openRegistry } from "../src/registry.js";
import { bufferSource, readAll, withoutSchemeProbe } from "./support/helpers.js";

// CNCF distribution 2.8 binds an upload location to the offset it was issued at, so an upload cut
// part-way cannot be resumed there (the test proxy cannot cut a request body part-way either).
// This loopback registry keeps sessions by id alone, as other registries do. A streamed PATCH
// (one without Content-Range) has its connection reset after `cutAt` bytes, or with
// `refuseStreamed` is answered 413 at once, before its body is read, as nginx does.
const MiB = 1024 * 1024;
const uploads = new Map<string, Buffer>();
const blobs = new Map<string, Buffer>();
let cutAt: number | undefined;
let refuseStreamed = false;
let nextId = 0;
let server: TestServer;

function body(req: IncomingMessage, limit = Number.POSITIVE_INFINITY): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    req.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= limit) {
        req.pause();
        resolve(Buffer.concat(chunks).subarray(0, limit));
      }
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function answer(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-length": "0", ...headers });
  res.end();
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://registry");
  const blob = /^\/v2\/ns\/tool\/blobs\/(sha256:[0-9a-f]{64})$/.exec(url.pathname)?.[1];
  const upload = /^\/v2\/ns\/tool\/blobs\/uploads\/([0-9]+)$/.exec(url.pathname)?.[1];
  if (blob !== undefined) {
    const stored = blobs.get(blob);
    if (!stored) return answer(res, 404);
    res.writeHead(200, { "content-length": String(stored.length) });
    res.end(req.method === "HEAD" ? undefined : stored);
    return;
  }
  if (req.method === "POST" && url.pathname === "/v2/ns/tool/blobs/uploads/") {
    const id = String(nextId++);
    uploads.set(id, Buffer.alloc(0));
    return answer(res, 202, { location: `/v2/ns/tool/blobs/uploads/${id}` });
  }
  const held = upload === undefined ? undefined : uploads.get(upload);
  if (upload === undefined || held === undefined) return answer(res, 404);
  const status = (size: number) => ({
    location: `/v2/ns/tool/blobs/uploads/${upload}`,
    range: `0-${size - 1}`,
  });
  if (req.method === "GET") return answer(res, 204, status(held.length));
  if (req.method === "PATCH") {
    const range = req.headers["content-range"];
    if (range === undefined && refuseStreamed) return answer(res, 413);
    if (range === undefined && cutAt !== undefined) {
      uploads.set(upload, Buffer.concat([held, await body(req, cutAt)]));
      cutAt = undefined;
      req.socket.destroy();
      return;
    }
    const received = await body(req);
    if (range !== undefined && Number(range.split("-")[0]) !== held.length) return answer(res, 416);
    uploads.set(upload, Buffer.concat([held, received]));
    return answer(res, 202, status(held.length + received.length));
  }
  if (req.method === "PUT") {
    const content = Buffer.concat([held, await body(req)]);
    const digest = url.searchParams.get("digest") ?? "";
    if (sha256Digest(content) !== digest) return answer(res, 400);
    blobs.set(digest, content);
    uploads.delete(upload);
    return answer(res, 201);
  }
  answer(res, 405);
}

beforeAll(async () => {
  server = await startHttpServer(handle);
});
beforeEach(() => {
  cutAt = undefined;
  refuseStreamed = false;
});
afterAll(async () => {
  await server?.stop();
});

const target = () => openRegistry(`${server.host}/ns/tool`, { retry: { firstDelayMs: 5 }, env: {} });

test("a streamed PATCH cut part-way goes on in chunks from where the session stands", async () => {
  const bytes = randomBytes(10 * MiB + 7);
  const blob = bufferSource(bytes);
  const cut = 4 * MiB + 5;
  cutAt = cut;
  const start = server.requests.length;
  const repo = target();
  expect(await repo.pushBlob(blob)).toBe("uploaded");
  const log = withoutSchemeProbe(server.requests.slice(start)).map((r) => ({
    request: `${r.method} ${r.status ?? "cut"}`,
    range: r.headers["content-range"],
    length: Number(r.headers["content-length"] ?? 0),
  }));
  expect(log.map((r) => r.request)).toEqual([
    "HEAD 404",
    "POST 202",
    "PATCH cut",
    "GET 204",
    "PATCH 202",
    "PATCH 202",
    "PATCH 202",
    "PUT 201",
  ]);
  expect(log[2]).toMatchObject({ range: undefined, length: bytes.length });
  const chunk = (from: number, to: number) => `${cut + from}-${Math.min(cut + to, bytes.length) - 1}`;
  expect(log.slice(4, 7).map((r) => r.range)).toEqual([
    chunk(0, MAX_CHUNK_SIZE),
    chunk(MAX_CHUNK_SIZE, 2 * MAX_CHUNK_SIZE),
    chunk(2 * MAX_CHUNK_SIZE, bytes.length),
  ]);
  expect(blob.opened).toBe(2);
  expect(repo.client.chunkedUploads).toBe(true);
  expect((await readAll(await repo.fetchBlob(blob.digest))).equals(bytes)).toBe(true);
});

test("a source that reads differently when reopened for the rest commits nothing", async () => {
  const bytes = randomBytes(5 * MiB);
  const honest = bufferSource(bytes);
  let opened = 0;
  const changing = { ...honest, open: () => (++opened === 1 ? bytes : randomBytes(bytes.length)) };
  cutAt = MiB;
  const start = server.requests.length;
  const failure = target().pushBlob(changing);
  await expect(failure).rejects.toMatchObject({ exitCode: 65 });
  await expect(failure).rejects.toThrow(/hashes to .*nothing committed/);
  expect(server.requests.slice(start).some((r) => r.method === "PUT")).toBe(false);
  expect(blobs.has(honest.digest)).toBe(false);
});

test("a 413 sent before the body was read stops the streamed PATCH; the blob goes in chunks", async () => {
  const bytes = randomBytes(20 * MiB);
  const blob = bufferSource(bytes);
  refuseStreamed = true;
  const start = server.requests.length;
  const repo = target();
  expect(await repo.pushBlob(blob)).toBe("uploaded");
  const log = withoutSchemeProbe(server.requests.slice(start));
  expect(log.map((r) => `${r.method} ${r.status}`)).toEqual([
    "HEAD 404",
    "POST 202",
    "PATCH 413",
    "GET 204",
    ...Array.from({ length: 7 }, () => "PATCH 202"),
    "PUT 201",
  ]);
  expect((await readAll(await repo.fetchBlob(blob.digest))).equals(bytes)).toBe(true);
});
