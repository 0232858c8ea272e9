import { createHash } from "node:crypto";
import { once } from "node:events";
import { request } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FaultAction,
  type FaultProxy,
  type RunningRegistry,
  sendRequest,
  startFaultProxy,
  startHttpServer,
  startRegistry,
  type TestServer,
} from "../src/index.js";

const BODY = Buffer.alloc(64 * 1024, "abcdefgh");

/** Everything the server sends on one raw connection until it closes it. */
async function rawExchange(host: string, text: string): Promise<Buffer> {
  const [hostname, port] = host.split(":");
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", () => undefined);
  socket.write(text);
  await once(socket, "close");
  return Buffer.concat(chunks);
}

describe("startFaultProxy in front of a test server", () => {
  let upstream: TestServer;
  let proxy: FaultProxy;
  let firstUploadBytes: () => void = () => undefined;

  beforeAll(async () => {
    upstream = await startHttpServer(async (req, res) => {
      const url = new URL(req.url ?? "/", upstream.url);
      if (url.pathname === "/data") {
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": BODY.length });
        res.end(BODY);
      } else if (url.pathname === "/stream") {
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("first chunk;");
        setImmediate(() => res.end("second chunk"));
      } else if (url.pathname === "/upload") {
        const hash = createHash("sha256");
        let bytes = 0;
        for await (const chunk of req as AsyncIterable<Buffer>) {
          if (bytes === 0) firstUploadBytes();
          bytes += chunk.length;
          hash.update(chunk);
        }
        res.writeHead(201, {
          location: `${upstream.url}/uploaded?n=${bytes}`,
          link: `<${upstream.url}/next>; rel="next"`,
        });
        res.end(JSON.stringify({ bytes, sha256: hash.digest("hex"), host: req.headers.host }));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    proxy = await startFaultProxy(upstream.url);
  });
  afterAll(async () => {
    await proxy?.stop();
    await upstream?.stop();
  });
  beforeEach(() => {
    proxy.setPlan(() => "pass");
  });

  it("passes requests through, rewrites Location and Link to the proxy, records statuses", async () => {
    const before = proxy.requests.length;
    const data = await sendRequest(`${proxy.url}/data`, { headers: { "x-probe": "1" } });
    expect(data.status).toBe(200);
    expect(data.body.equals(BODY)).toBe(true);
    const upload = await sendRequest(`${proxy.url}/upload`, { method: "POST", body: "hello" });
    expect(upload.status).toBe(201);
    expect(upload.headers.location).toBe(`${proxy.url}/uploaded?n=5`);
    expect(upload.headers.link).toBe(`<${proxy.url}/next>; rel="next"`);
    expect(JSON.parse(upload.body.toString())).toMatchObject({ bytes: 5, host: upstream.host });
    expect(upstream.requests.at(-2)?.headers["x-probe"]).toBe("1");
    expect(proxy.requests.slice(before).map(({ method, url, status }) => ({ method, url, status }))).toEqual([
      { method: "GET", url: "/data", status: 200 },
      { method: "POST", url: "/upload", status: 201 },
    ]);
  });

  it("streams a request body to the upstream before the client has finished sending it", async () => {
    const arrived = new Promise<void>((resolve) => {
      firstUploadBytes = resolve;
    });
    const req = request(`${proxy.url}/upload`, { method: "PUT", agent: false });
    const response = new Promise<Buffer>((resolve, reject) => {
      req.once("error", reject);
      req.once("response", async (res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of res as AsyncIterable<Buffer>) chunks.push(chunk);
        resolve(Buffer.concat(chunks));
      });
    });
    const part = Buffer.alloc(1024 * 1024, 7);
    req.write(part);
    await arrived;
    for (let i = 0; i < 7; i++) req.write(part);
    req.end();
    const all = Buffer.concat(Array.from({ length: 8 }, () => part));
    expect(JSON.parse((await response).toString())).toMatchObject({
      bytes: all.length,
      sha256: createHash("sha256").update(all).digest("hex"),
    });
  });

  it("drop closes the connection without a response and never reaches the upstream", async () => {
    proxy.setPlan(() => "drop");
    const upstreamBefore = upstream.requests.length;
    await expect(sendRequest(`${proxy.url}/data`)).rejects.toMatchObject({ code: "ECONNRESET" });
    expect(upstream.requests.length).toBe(upstreamBefore);
    expect(proxy.requests.at(-1)?.url).toBe("/data");
    expect(proxy.requests.at(-1)?.status).toBeUndefined();
  });

  it("reset-mid-body sends the head and part of the body, then cuts the connection", async () => {
    proxy.setPlan(() => "reset-mid-body");
    const received = await rawExchange(proxy.host, `GET /data HTTP/1.1\r\nHost: ${proxy.host}\r\n\r\n`);
    const headEnd = received.indexOf("\r\n\r\n");
    const head = received.subarray(0, headEnd).toString();
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).toContain(`content-length: ${BODY.length}`);
    const body = received.subarray(headEnd + 4);
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThan(BODY.length);
    expect(body.equals(BODY.subarray(0, body.length))).toBe(true);
    expect(proxy.requests.at(-1)).toMatchObject({ url: "/data", status: 200 });
    await expect(sendRequest(`${proxy.url}/data`)).rejects.toThrow();
    await expect(sendRequest(`${proxy.url}/stream`)).rejects.toThrow();
  });

  it("a status action answers without the upstream, after reading the request body", async () => {
    proxy.setPlan(
      (req): FaultAction =>
        req.method === "POST"
          ? { status: 429, headers: { "retry-after": "3" }, body: "slow down" }
          : { status: 503, headers: {} },
    );
    const upstreamBefore = upstream.requests.length;
    const limited = await sendRequest(`${proxy.url}/upload`, {
      method: "POST",
      body: Buffer.alloc(4 * 1024 * 1024),
    });
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBe("3");
    expect(limited.body.toString()).toBe("slow down");
    expect((await sendRequest(`${proxy.url}/data`)).status).toBe(503);
    expect(upstream.requests.length).toBe(upstreamBefore);
    expect(proxy.requests.slice(-2).map((r) => r.status)).toEqual([429, 503]);
  });

  it("passes the request and its index to the plan", async () => {
    const seen: [string, number][] = [];
    proxy.setPlan((req, index) => {
      seen.push([req.url, index]);
      return index % 2 === 0 ? { status: 500 } : "pass";
    });
    const first = proxy.requests.length;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await sendRequest(`${proxy.url}/data?i=${i}`)).status);
    expect(seen.map(([, index]) => index)).toEqual([first, first + 1, first + 2, first + 3]);
    expect(seen.map(([url]) => url)).toEqual(["/data?i=0", "/data?i=1", "/data?i=2", "/data?i=3"]);
    expect(statuses).toEqual(first % 2 === 0 ? [500, 200, 500, 200] : [200, 500, 200, 500]);
  });
});

describe("startFaultProxy delays", () => {
  it("a delay holds the request back from the upstream until it has passed", async () => {
    const upstream = await startHttpServer((req, res) => res.end(req.url));
    const proxy = await startFaultProxy(upstream.url, (req) =>
      req.url === "/held" ? { delayMs: 3_600_000 } : req.url === "/brief" ? { delayMs: 1 } : "pass",
    );
    try {
      const held = sendRequest(`${proxy.url}/held`);
      const heldOutcome = held.then(
        () => "answered",
        () => "failed",
      );
      expect((await sendRequest(`${proxy.url}/brief`)).body.toString()).toBe("/brief");
      expect((await sendRequest(`${proxy.url}/other`)).body.toString()).toBe("/other");
      expect(upstream.requests.map((r) => r.url)).toEqual(["/brief", "/other"]);
      await proxy.stop();
      expect(await heldOutcome).toBe("failed");
      expect(upstream.requests.map((r) => r.url)).toEqual(["/brief", "/other"]);
    } finally {
      await proxy.stop();
      await upstream.stop();
    }
  });
});

describe("startFaultProxy in front of a registry", () => {
  let registry: RunningRegistry;
  let proxy: FaultProxy;
  beforeAll(async () => {
    registry = await startRegistry();
    proxy = await startFaultProxy(registry.url);
  });
  afterAll(async () => {
    await proxy?.stop();
    await registry?.stop();
  });

  it("a blob upload through the proxy follows Locations that point at the proxy", async () => {
    const blob = Buffer.from("a blob through the proxy");
    const digest = `sha256:${createHash("sha256").update(blob).digest("hex")}`;
    const started = await sendRequest(`${proxy.url}/v2/x/y/blobs/uploads/`, { method: "POST" });
    expect(started.status).toBe(202);
    const location = String(started.headers.location);
    expect(location.startsWith(`${proxy.url}/v2/x/y/blobs/uploads/`)).toBe(true);
    const put = new URL(location);
    put.searchParams.set("digest", digest);
    const finished = await sendRequest(put.toString(), {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: blob,
    });
    expect(finished.status).toBe(201);
    expect(finished.headers.location).toBe(`${proxy.url}/v2/x/y/blobs/${digest}`);
    const fetched = await sendRequest(`${proxy.url}/v2/x/y/blobs/${digest}`);
    expect(fetched.body.equals(blob)).toBe(true);
    const direct = await sendRequest(`${registry.url}/v2/x/y/blobs/${digest}`, { method: "HEAD" });
    expect(direct.status).toBe(200);
  });
});
