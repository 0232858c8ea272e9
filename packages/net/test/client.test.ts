import { once } from "node:events";
import { writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { createTestCa, type RequestHandler, startHttpServer } from "@pkg/testkit";
import { describe, expect, test } from "vitest";
import { HttpTransportError } from "../src/http/errors.js";
import { useNetTestBed } from "./support/test-bed.js";

const bed = useNetTestBed("net-http-");

const b64 = (text: string) => Buffer.from(text).toString("base64");

const ok =
  (text: string): RequestHandler =>
  (_req, res) =>
    res.end(text);

/** A forward proxy speaking CONNECT only (undici tunnels every proxied request), logging each target. */
async function startConnectProxy(): Promise<{ url: string; targets: string[] }> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const proxy = createServer((_req, res) => {
    res.writeHead(405).end();
  });
  proxy.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  proxy.on("connect", (req, clientSocket: Socket, head: Buffer) => {
    const target = req.url ?? "";
    targets.push(target);
    const [host, port] = [target.replace(/:[0-9]+$/, ""), Number(target.replace(/^.*:/, ""))];
    const upstream = connect(port, host, () => {
      clientSocket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("error", () => clientSocket.destroy());
    clientSocket.on("error", () => upstream.destroy());
  });
  proxy.listen(0, "127.0.0.1");
  await once(proxy, "listening");
  const address = proxy.address();
  if (address === null || typeof address === "string") throw new Error("proxy has no port");
  bed.onCleanup(
    () =>
      new Promise<void>((resolve) => {
        proxy.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  );
  return { url: `http://127.0.0.1:${address.port}`, targets };
}

describe("requests and responses", () => {
  test("GET and HEAD: status, headers, body, final URL, user agent, request count", async () => {
    const site = await bed.server((req, res) => {
      res.setHeader("x-answer", "42");
      res.end(req.method === "HEAD" ? undefined : "hello");
    });
    const http = bed.client({ userAgent: "pkg-test/1" });
    const response = await http.fetch({ url: `${site.url}/a?b=c` });
    expect(response).toMatchObject({ status: 200, url: `${site.url}/a?b=c` });
    expect(response.body.toString()).toBe("hello");
    expect(response.headers["x-answer"]).toBe("42");
    const head = await http.fetch({ url: `${site.url}/a`, method: "HEAD" });
    expect(head.body.length).toBe(0);
    expect(site.requests.map((r) => [r.method, r.headers["user-agent"]])).toEqual([
      ["GET", "pkg-test/1"],
      ["HEAD", "pkg-test/1"],
    ]);
    expect(http.requestCount).toBe(2);
  });

  test("any status resolves", async () => {
    const site = await bed.server((_req, res) => res.writeHead(503).end("busy"));
    const response = await bed.client().fetch({ url: site.url });
    expect(response.status).toBe(503);
    expect(response.body.toString()).toBe("busy");
  });

  test("a URL with userinfo is refused with exit 65 and never echoed; nothing is sent", async () => {
    const site = await bed.server(ok("x"));
    const http = bed.client();
    const url = `http://someone:hunter2-secret@${site.host}/path`;
    const refusal = http.fetch({ url });
    await expect(refusal).rejects.toMatchObject({ exitCode: 65 });
    await expect(refusal).rejects.not.toThrow(/hunter2|someone/);
    expect(site.requests).toHaveLength(0);
    expect(http.requestCount).toBe(0);
  });

  test("a body over maxBytes fails, declared or streamed", async () => {
    const site = await bed.server((req, res) => {
      if (req.url === "/declared") res.end("x".repeat(100));
      else {
        res.write("x".repeat(60));
        res.end("x".repeat(60));
      }
    });
    const http = bed.client();
    for (const path of ["/declared", "/chunked"]) {
      const failure = http.fetch({ url: `${site.url}${path}`, maxBytes: 50 });
      await expect(failure).rejects.toBeInstanceOf(HttpTransportError);
      await expect(failure).rejects.toMatchObject({ exitCode: 69, transient: false });
      await expect(failure).rejects.toThrow(/larger than 50 bytes/);
    }
    const exact = await http.fetch({ url: `${site.url}/declared`, maxBytes: 100 });
    expect(exact.body.length).toBe(100);
  });

  test("a server that never answers times out with exit 69", async () => {
    const site = await bed.server(() => new Promise(() => {}));
    const failure = bed.client().fetch({ url: `${site.url}/slow`, timeoutMs: 200 });
    await expect(failure).rejects.toBeInstanceOf(HttpTransportError);
    await expect(failure).rejects.toMatchObject({ exitCode: 69, transient: true });
    await expect(failure).rejects.toThrow(/no complete answer within 200 ms/);
  });

  test("a refused connection rejects with exit 69 naming the URL without its query", async () => {
    const site = await startHttpServer(ok("x"));
    await site.stop();
    const failure = bed.client().fetch({ url: `${site.url}/file.tar.gz?X-Signature=query-secret` });
    await expect(failure).rejects.toBeInstanceOf(HttpTransportError);
    await expect(failure).rejects.toMatchObject({ exitCode: 69, url: `${site.url}/file.tar.gz?…` });
    await expect(failure).rejects.not.toThrow(/query-secret/);
    await expect(failure).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("redirects and credentials", () => {
  test("a redirect to another host does not carry the first host's credential", async () => {
    const second = await bed.server(ok("moved here"));
    const first = await bed.server((_req, res) => res.writeHead(302, { location: `${second.url}/b` }).end());
    const slug = first.host.replace(/[^A-Za-z0-9]/g, "_");
    bed.env[`PKG_AUTH_${slug}_USER`] = "alice";
    bed.env[`PKG_AUTH_${slug}_TOKEN`] = "first-secret";
    const http = bed.client();
    const response = await http.fetch({ url: `${first.url}/a` });
    expect(response).toMatchObject({ status: 200, url: `${second.url}/b` });
    expect(first.requests[0]?.headers.authorization).toBe(`Basic ${b64("alice:first-secret")}`);
    expect(second.requests[0]?.headers.authorization).toBeUndefined();
    expect(http.requestCount).toBe(2);
  });

  test("each hop gets its own host's credential; an explicit header goes to the first origin only", async () => {
    const second = await bed.server(ok("b"));
    const first = await bed.server((_req, res) => res.writeHead(307, { location: `${second.url}/b` }).end());
    bed.env[`PKG_AUTH_${second.host.replace(/[^A-Za-z0-9]/g, "_")}_TOKEN`] = "second-token";
    await bed.client().fetch({ url: first.url, headers: { Authorization: "Bearer explicit-token" } });
    expect(first.requests[0]?.headers.authorization).toBe("Bearer explicit-token");
    expect(second.requests[0]?.headers.authorization).toBe("Bearer second-token");
  });

  test("a netrc credential goes to its machine only; Docker's config is not read", async () => {
    const mine = await bed.server(ok("mine"));
    const other = await bed.server(ok("other"));
    await writeFile(join(bed.home, ".netrc"), `machine ${mine.host} login bob password netrc-secret\n`);
    bed.env.DOCKER_CONFIG = bed.home;
    await writeFile(
      join(bed.home, "config.json"),
      JSON.stringify({ auths: { [other.host]: { auth: b64("docker:docker-secret") } } }),
    );
    const http = bed.client();
    await http.fetch({ url: mine.url });
    await http.fetch({ url: other.url });
    expect(mine.requests[0]?.headers.authorization).toBe(`Basic ${b64("bob:netrc-secret")}`);
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
  });

  test('auth: "none" sends no credential', async () => {
    const site = await bed.server(ok("x"));
    bed.env[`PKG_AUTH_${site.host.replace(/[^A-Za-z0-9]/g, "_")}_TOKEN`] = "unused-token";
    await bed.client().fetch({ url: site.url, auth: "none" });
    expect(site.requests[0]?.headers.authorization).toBeUndefined();
  });

  test("more than 10 redirects fail; a redirect to a URL with userinfo is refused", async () => {
    const site = await bed.server((req, res) => {
      if (req.url === "/userinfo")
        res.writeHead(302, { location: "http://u:p-secret@example.invalid/" }).end();
      else res.writeHead(301, { location: `/loop${(req.url ?? "").length}` }).end();
    });
    const http = bed.client();
    const loop = http.fetch({ url: `${site.url}/start` });
    await expect(loop).rejects.toMatchObject({ exitCode: 69 });
    await expect(loop).rejects.toThrow(/more than 10 redirects/);
    expect(http.requestCount).toBe(11);
    const userinfo = http.fetch({ url: `${site.url}/userinfo` });
    await expect(userinfo).rejects.toMatchObject({ exitCode: 65 });
    await expect(userinfo).rejects.not.toThrow(/p-secret/);
  });
});

describe("TLS and proxies", () => {
  test("a private CA is trusted through SSL_CERT_FILE, and only then", async () => {
    const ca = await createTestCa();
    bed.onCleanup(() => ca.remove());
    const site = await bed.server(ok("secure"), { tls: ca });
    const untrusted = bed.client().fetch({ url: site.url });
    await expect(untrusted).rejects.toBeInstanceOf(HttpTransportError);
    await expect(untrusted).rejects.toMatchObject({ exitCode: 69, transient: false });
    bed.env.SSL_CERT_FILE = ca.certPath;
    const response = await bed.client().fetch({ url: site.url });
    expect(response.body.toString()).toBe("secure");
  });

  test("HTTPS_PROXY tunnels https requests; NO_PROXY bypasses the proxy", async () => {
    const ca = await createTestCa();
    bed.onCleanup(() => ca.remove());
    const site = await bed.server(ok("via proxy"), { tls: ca });
    const proxy = await startConnectProxy();
    bed.env.SSL_CERT_FILE = ca.certPath;
    bed.env.HTTPS_PROXY = proxy.url;
    const response = await bed.client().fetch({ url: `${site.url}/x` });
    expect(response.body.toString()).toBe("via proxy");
    expect(proxy.targets).toEqual([site.host]);

    bed.env.NO_PROXY = "example.com,127.0.0.1";
    await bed.client().fetch({ url: `${site.url}/y` });
    expect(proxy.targets).toEqual([site.host]);
    expect(site.requests.map((r) => r.url)).toEqual(["/x", "/y"]);
  });

  test("lower-case http_proxy is honoured for plain http", async () => {
    const site = await bed.server(ok("plain"));
    const proxy = await startConnectProxy();
    bed.env.http_proxy = proxy.url;
    const response = await bed.client().fetch({ url: site.url });
    expect(response.body.toString()).toBe("plain");
    expect(proxy.targets).toEqual([site.host]);
  });
});
