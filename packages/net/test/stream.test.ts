import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { HttpTransportError } from "../src/http/errors.js";
import type { HttpResponseHead } from "../src/http/types.js";
import { useNetTestBed } from "./support/test-bed.js";

const bed = useNetTestBed("net-stream-");

/** A Writable collecting what it receives. */
function collector(): { sink: Writable; chunks: Buffer[] } {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return { sink, chunks };
}

const body = Buffer.alloc(256 * 1024, 7);

describe("HttpClient.stream", () => {
  test("streams the body of the final answer into the sink, redirects followed", async () => {
    const site = await bed.server((req, res) => {
      if (req.url === "/moved") res.writeHead(302, { location: "/file" }).end();
      else res.writeHead(200, { "content-length": body.length }).end(body);
    });
    const { sink, chunks } = collector();
    let seen: HttpResponseHead | undefined;
    const result = await bed.client().stream({ url: `${site.url}/moved` }, (head) => {
      seen = head;
      return sink;
    });
    expect(result).toMatchObject({ status: 200, url: `${site.url}/file`, bytes: body.length });
    expect(seen?.headers["content-length"]).toBe(String(body.length));
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
  });

  test("a declined body is discarded and the status still reported", async () => {
    const site = await bed.server((_req, res) => res.writeHead(404).end("not here"));
    const result = await bed.client().stream({ url: `${site.url}/x` }, () => undefined);
    expect(result).toMatchObject({ status: 404, bytes: 0 });
  });

  test("maxBytes: a declared length over the bound is refused before reading, an undeclared one once passed", async () => {
    const site = await bed.server((req, res) => {
      if (req.url === "/declared") res.writeHead(200, { "content-length": body.length }).end(body);
      else {
        res.writeHead(200);
        res.write(body.subarray(0, 1000));
        res.end(body.subarray(1000));
      }
    });
    for (const path of ["/declared", "/chunked"]) {
      const { sink } = collector();
      const failure = bed.client().stream({ url: `${site.url}${path}`, maxBytes: 1024 }, () => sink);
      await expect(failure).rejects.toBeInstanceOf(HttpTransportError);
      await expect(failure).rejects.toThrow(`${site.url}${path}: response body is larger than 1024 bytes`);
      await expect(failure).rejects.toMatchObject({ transient: false, exitCode: 69 });
    }
  });

  test("a body cut short rejects as a transient transport error", async () => {
    const site = await bed.server((req, res) => {
      res.writeHead(200, req.url === "/declared" ? { "content-length": body.length } : {});
      res.write(body.subarray(0, 1000), () => res.socket?.destroy());
    });
    for (const path of ["/declared", "/chunked"]) {
      const { sink } = collector();
      const failure = bed.client().stream({ url: `${site.url}${path}` }, () => sink);
      await expect(failure).rejects.toBeInstanceOf(HttpTransportError);
      await expect(failure).rejects.toMatchObject({ transient: true, exitCode: 69 });
      await expect(failure).rejects.toThrow(/download interrupted/);
    }
  });

  test("the sink's own error passes through as it is", async () => {
    const site = await bed.server((_req, res) => res.end(body));
    const diskFull = Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    const sink = new Writable({
      write(_chunk, _encoding, callback) {
        callback(diskFull);
      },
    });
    await expect(bed.client().stream({ url: `${site.url}/x` }, () => sink)).rejects.toBe(diskFull);
  });

  test("a slow head fails after timeoutMs; the fetch path keeps its whole-request bound", async () => {
    const site = await bed.server(() => {});
    const failure = bed.client().stream({ url: `${site.url}/never`, timeoutMs: 200 }, () => collector().sink);
    await expect(failure).rejects.toThrow(`${site.url}/never: no complete answer within 200 ms`);
  });
});
