import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { type RequestHandler, startHttpServer, type TestServer } from "@pkg/testkit";
import { describe, expect, test } from "vitest";
import { drain, readBody } from "../src/http/body.js";
import type { StreamBody } from "../src/http/request-body.js";
import type { HttpResponse } from "../src/http/types.js";
import { isRetryableStatus } from "../src/retry/transient.js";
import { withRetries } from "../src/retry/with-retries.js";
import { useNetTestBed } from "./support/test-bed.js";

const bed = useNetTestBed("net-bodies-");

/** What a server received: method, path, headers and the whole body. */
interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A loopback server recording every request with its body, answering through `answer`. */
async function server(answer: (got: Received, res: Parameters<RequestHandler>[1]) => unknown) {
  const received: Received[] = [];
  const started: TestServer = await startHttpServer(async (req, res) => {
    const got = {
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body: await readAll(req),
    };
    received.push(got);
    await answer(got, res);
  });
  bed.onCleanup(() => started.stop());
  return { ...started, received };
}

/** A stream body counting how often it was opened. */
function countedStream(content: Buffer, withLength = true): StreamBody & { opens: number } {
  const body = {
    opens: 0,
    open() {
      body.opens += 1;
      // several chunks, so that the body really streams
      const pieces = [content.subarray(0, 1000), content.subarray(1000, 5000), content.subarray(5000)];
      return Readable.from(pieces);
    },
    ...(withLength ? { length: content.length } : {}),
  };
  return body;
}

const payload = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));

describe("request bodies", () => {
  test("a JSON POST body arrives intact, with its content type; text and bytes as given", async () => {
    const site = await server((_got, res) => res.writeHead(201).end("created"));
    const http = bed.client();
    const document = { name: "tool", tags: ["1.0.0", "latest"], nested: { ü: "ünïcödé", n: 1.5 } };
    const response = await http.fetch({ url: `${site.url}/a`, method: "POST", body: { json: document } });
    expect(response.status).toBe(201);
    await http.fetch({ url: `${site.url}/b`, method: "PUT", body: "plain text" });
    await http.fetch({ url: `${site.url}/c`, method: "PATCH", body: payload });
    await http.fetch({
      url: `${site.url}/d`,
      method: "POST",
      headers: { "Content-Type": "application/vnd.custom+json" },
      body: { json: [1] },
    });
    const [json, text, bytes, custom] = site.received;
    expect(json?.method).toBe("POST");
    expect(json?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(json?.body.toString("utf8") ?? "")).toEqual(document);
    expect(text).toMatchObject({ method: "PUT" });
    expect(text?.body.toString()).toBe("plain text");
    expect(bytes).toMatchObject({ method: "PATCH" });
    expect(bytes?.body.equals(payload)).toBe(true);
    expect(custom?.headers["content-type"]).toBe("application/vnd.custom+json");
    const deleted = await http.fetch({ url: `${site.url}/e`, method: "DELETE" });
    expect(deleted.status).toBe(201);
    expect(site.received[4]).toMatchObject({ method: "DELETE", url: "/e" });
  });

  test("a stream body goes with its length, or chunked without one", async () => {
    const site = await server((_got, res) => res.end());
    const http = bed.client();
    await http.fetch({ url: site.url, method: "PUT", body: countedStream(payload) });
    await http.fetch({ url: site.url, method: "PUT", body: countedStream(payload, false) });
    expect(site.received[0]?.headers["content-length"]).toBe(String(payload.length));
    expect(site.received[1]?.headers["transfer-encoding"]).toBe("chunked");
    expect(site.received.every((got) => got.body.equals(payload))).toBe(true);
  });

  test("a 307 and a 308 resend the stream body, opened afresh, with the same method", async () => {
    const site = await server((got, res) => {
      if (got.url === "/first") return res.writeHead(307, { location: "/second" }).end();
      if (got.url === "/second") return res.writeHead(308, { location: "/third" }).end();
      return res.writeHead(200).end("stored");
    });
    const body = countedStream(payload);
    const response = await bed.client().fetch({ url: `${site.url}/first`, method: "PUT", body });
    expect(response).toMatchObject({ status: 200, url: `${site.url}/third` });
    expect(body.opens).toBe(3);
    expect(site.received.map((got) => [got.method, got.url, got.body.equals(payload)])).toEqual([
      ["PUT", "/first", true],
      ["PUT", "/second", true],
      ["PUT", "/third", true],
    ]);
  });

  test("a 303, or a 301/302 answering a POST, turns it into a GET without body or body headers", async () => {
    const site = await server((got, res) => {
      const status = Number(got.url.slice(1));
      if (status >= 300) return res.writeHead(status, { location: "/0" }).end();
      return res.end("landed");
    });
    const http = bed.client();
    for (const status of [301, 302, 303]) {
      site.received.length = 0;
      const response = await http.fetch({
        url: `${site.url}/${status}`,
        method: "POST",
        body: { json: { a: 1 } },
      });
      expect(response.body.toString()).toBe("landed");
      const landed = site.received[1];
      expect(landed).toMatchObject({ method: "GET", url: "/0" });
      expect(landed?.body.length).toBe(0);
      expect(landed?.headers["content-type"]).toBeUndefined();
      expect(landed?.headers["content-length"]).toBeUndefined();
    }
    site.received.length = 0;
    await http.fetch({ url: `${site.url}/303`, method: "PUT", body: "x" });
    expect(site.received[1]).toMatchObject({ method: "GET" });
    site.received.length = 0;
    await http.fetch({ url: `${site.url}/302`, method: "PUT", body: "kept" });
    expect(site.received[1]?.method).toBe("PUT");
    expect(site.received[1]?.body.toString()).toBe("kept");
  });

  test("a request without body keeps the headers it was given, also across a 307", async () => {
    const site = await server((got, res) => {
      if (got.url === "/first") return res.writeHead(307, { location: "/second" }).end();
      return res.writeHead(201).end();
    });
    const headers = { "content-type": "application/octet-stream" };
    await bed.client().fetch({ url: `${site.url}/first`, method: "PUT", headers });
    expect(site.received.map((got) => [got.url, got.method, got.headers["content-type"]])).toEqual([
      ["/first", "PUT", "application/octet-stream"],
      ["/second", "PUT", "application/octet-stream"],
    ]);
  });

  test("Authorization is never sent to another origin on a redirect; it is to the same origin", async () => {
    const other = await server((_got, res) => res.end("other"));
    const site = await server((got, res) => {
      if (got.url === "/away") return res.writeHead(307, { location: `${other.url}/landing` }).end();
      if (got.url === "/here") return res.writeHead(307, { location: "/landing" }).end();
      return res.end("same");
    });
    const http = bed.client();
    const headers = { Authorization: "Bearer secret-token" };
    await http.fetch({ url: `${site.url}/away`, method: "POST", headers, body: { json: { a: 1 } } });
    expect(site.received[0]?.headers.authorization).toBe("Bearer secret-token");
    expect(other.received[0]?.headers.authorization).toBeUndefined();
    expect(JSON.parse(other.received[0]?.body.toString() ?? "")).toEqual({ a: 1 });
    await http.fetch({ url: `${site.url}/here`, method: "POST", headers, body: "x" });
    expect(site.received.slice(1).map((got) => got.headers.authorization)).toEqual([
      "Bearer secret-token",
      "Bearer secret-token",
    ]);
  });

  test('redirect: "manual" answers with the 3xx itself', async () => {
    const site = await server((_got, res) => res.writeHead(302, { location: "/elsewhere" }).end());
    const response = await bed.client().fetch({ url: site.url, redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe("/elsewhere");
    expect(site.received).toHaveLength(1);
  });

  test("open: the head first, the body read or drained by the caller", async () => {
    const site = await server((got, res) => res.end(got.url === "/big" ? payload : "small"));
    const http = bed.client();
    const opened = await http.open({ url: `${site.url}/big` });
    expect(opened.status).toBe(200);
    const body = await readBody(
      opened.body,
      new URL(opened.url),
      undefined,
      opened.headers["content-length"],
    );
    expect(body.equals(payload)).toBe(true);
    const drained = await http.open({ url: `${site.url}/small` });
    await drain(drained.body);
    expect(drained.body.readableEnded).toBe(true);
  });

  test("a failing stream body rejects with its own error, not a transport error", async () => {
    const site = await server((_got, res) => res.end());
    const broken = new Error("the source broke");
    const body: StreamBody = {
      length: 10_000,
      open: () =>
        Readable.from(
          (async function* () {
            yield Buffer.alloc(1000);
            throw broken;
          })(),
        ),
    };
    await expect(bed.client().open({ url: site.url, method: "PUT", body })).rejects.toBe(broken);
  });

  test("an answer sent before the body was read (413) resolves, the rest of the body not sent", async () => {
    const started = await startHttpServer((_req, res) => {
      res.writeHead(413, { connection: "close" }).end("too large");
    });
    bed.onCleanup(() => started.stop());
    const big = Buffer.alloc(64 * 1024 * 1024, 1);
    const response = await bed.client().fetch({
      url: started.url,
      method: "PATCH",
      body: {
        length: big.length,
        open: () => Readable.from([big.subarray(0, big.length / 2), big.subarray(big.length / 2)]),
      },
    });
    expect(response.status).toBe(413);
    expect(response.body.toString()).toBe("too large");
  });
});

describe("Retry-After with withRetries", () => {
  test("429 and 503 answers are retried after the wait they ask for (seconds or a date)", async () => {
    const answers = [
      { status: 429, headers: { "retry-after": "2" } },
      { status: 503, headers: { "retry-after": new Date(Date.now() + 5000).toUTCString() } },
      { status: 503, headers: { "retry-after": "3600" } },
      { status: 200, headers: {} },
    ];
    const site = await server((got, res) => {
      const answer = answers.shift() ?? { status: 200, headers: {} };
      res.writeHead(answer.status, answer.headers).end(got.body);
    });
    const http = bed.client();
    const waits: number[] = [];
    const response = await withRetries<HttpResponse>(
      { retries: 5, firstDelayMs: 100, maxDelayMs: 30_000, jitter: { below: 0, above: 0 } },
      () => http.fetch({ url: site.url, method: "POST", body: { json: { again: true } } }),
      {
        isRetryableValue: (answer) => isRetryableStatus(answer.status),
        retryAfter: (failure) => ("value" in failure ? failure.value.headers["retry-after"] : undefined),
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    );
    expect(response.status).toBe(200);
    expect(waits[0]).toBe(2000);
    // an HTTP date: about 5 s from when it was written (whole seconds)
    expect(waits[1]).toBeGreaterThan(3000);
    expect(waits[1]).toBeLessThanOrEqual(5000);
    // clamped to the policy's maximum
    expect(waits[2]).toBe(30_000);
    expect(site.received.map((got) => JSON.parse(got.body.toString()))).toEqual(
      Array.from({ length: 4 }, () => ({ again: true })),
    );
  });

  test("the wait really happens: a Retry-After of 1 s delays the next request by about that", async () => {
    let first = true;
    const site = await server((_got, res) => {
      if (first) {
        first = false;
        return res.writeHead(503, { "retry-after": "1" }).end();
      }
      return res.end("ok");
    });
    const http = bed.client();
    const started = Date.now();
    const response = await withRetries(
      { retries: 1, firstDelayMs: 10, maxDelayMs: 5000, jitter: { below: 0, above: 0 } },
      () => http.fetch({ url: site.url }),
      {
        isRetryableValue: (answer) => isRetryableStatus(answer.status),
        retryAfter: (failure) => ("value" in failure ? failure.value.headers["retry-after"] : undefined),
      },
    );
    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });
});
