import { X509Certificate } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa, sendRequest, startHttpServer, type TestCa, type TestServer } from "../src/index.js";

describe("test CA", () => {
  let ca: TestCa;
  beforeAll(async () => {
    ca = await createTestCa();
  });
  afterAll(async () => {
    await ca?.remove();
  });

  it("issues leaf certificates for loopback and the given names, signed by the CA", async () => {
    const leaf = await ca.issue(["registry.test", "10.1.2.3"]);
    const cert = new X509Certificate(leaf.certPem);
    const caCert = new X509Certificate(ca.certPem);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(caCert.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.checkIP("127.0.0.1")).toBe("127.0.0.1");
    expect(cert.checkHost("localhost")).toBe("localhost");
    expect(cert.checkHost("registry.test")).toBe("registry.test");
    expect(cert.checkIP("10.1.2.3")).toBe("10.1.2.3");
    expect(cert.checkHost("other.test")).toBeUndefined();
  });
});

describe("startHttpServer", () => {
  let server: TestServer;
  afterAll(async () => {
    await server?.stop();
  });

  it("answers with the handler and records each request with its status", async () => {
    server = await startHttpServer((req, res) => {
      if (req.url === "/boom") throw new Error("handler exploded");
      res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "text/plain" });
      res.end(`you asked for ${req.url}`);
    });
    expect(server.url).toBe(`http://${server.host}`);
    const ok = await sendRequest(`${server.url}/a?b=1`, { headers: { "x-test": "yes" } });
    expect(ok.status).toBe(200);
    expect(ok.body.toString()).toBe("you asked for /a?b=1");
    expect((await sendRequest(`${server.url}/missing`, { method: "DELETE" })).status).toBe(404);
    const failed = await sendRequest(`${server.url}/boom`);
    expect(failed.status).toBe(500);
    expect(failed.body.toString()).toContain("handler exploded");
    expect(server.requests.map(({ method, url, status }) => ({ method, url, status }))).toEqual([
      { method: "GET", url: "/a?b=1", status: 200 },
      { method: "DELETE", url: "/missing", status: 404 },
      { method: "GET", url: "/boom", status: 500 },
    ]);
    expect(server.requests[0]?.headers["x-test"]).toBe("yes");
  });

  it("stop() closes open keep-alive connections and refuses new ones", async () => {
    const local = await startHttpServer((_req, res) => res.end("hi"));
    const [host, port] = local.host.split(":");
    const socket = connect(Number(port), host);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    socket.write(`GET / HTTP/1.1\r\nHost: ${local.host}\r\nConnection: keep-alive\r\n\r\n`);
    await new Promise((resolve) => socket.once("data", resolve));
    await local.stop();
    await closed;
    await expect(sendRequest(local.url)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await local.stop();
  });
});

describe("startHttpServer with TLS", () => {
  let ca: TestCa;
  let server: TestServer;
  beforeAll(async () => {
    ca = await createTestCa();
    server = await startHttpServer((_req, res) => res.end("secure"), { tls: ca });
  });
  afterAll(async () => {
    await server?.stop();
    await ca?.remove();
  });

  it("serves https that verifies against the CA, and only against it", async () => {
    expect(server.url).toBe(`https://${server.host}`);
    const response = await sendRequest(`${server.url}/`, { ca: ca.certPem });
    expect(response.body.toString()).toBe("secure");
    const localhost = server.url.replace("127.0.0.1", "localhost");
    expect((await sendRequest(localhost, { ca: ca.certPem })).status).toBe(200);
    await expect(sendRequest(`${server.url}/`)).rejects.toThrow(/certificate/i);
  });
});
