import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { sha256Of } from "@pkg/index";
import {
  createTestCa,
  startHttpServer,
  type TempDir,
  type TestCa,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import type { SourceEntry } from "../../src/config/types.js";
import { readSources } from "../../src/sources/read-sources.js";
import { catalogConfig, ocxIndexDir, pathSource, readJson, summary } from "../support/source-fixtures.js";

/** Per path, the answers to give before serving the file (a status, or a body replacing it). */
type Override =
  | { status: number; headers?: Record<string, string> }
  | { body: Uint8Array; chunked?: boolean };

describe("a url source over local HTTPS", () => {
  let ca: TestCa;
  let server: TestServer;
  let temp: TempDir;
  let overrides: Map<string, Override[]>;

  async function serve(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "https://x").pathname.slice(1);
    const override = overrides.get(path)?.shift();
    if (override !== undefined && "status" in override) {
      res.writeHead(override.status, override.headers).end();
      return;
    }
    let bytes: Uint8Array;
    if (override !== undefined) {
      bytes = override.body;
    } else {
      try {
        bytes = await readFile(join(ocxIndexDir, path));
      } catch {
        res.writeHead(404).end();
        return;
      }
    }
    const etag = `"${sha256Of(bytes).slice(7, 23)}"`;
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    const chunked = override !== undefined && "chunked" in override && override.chunked === true;
    res.writeHead(200, chunked ? { etag } : { etag, "content-length": String(bytes.length) });
    res.end(bytes);
  }

  const urlSource = (index = 0, url = server.url): SourceEntry => ({ kind: "url", index, url });
  const delays: number[] = [];
  const options = (cacheDir: string) => ({
    warn: () => {},
    cacheDir,
    ca: ca.certPem,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  });
  let cacheCount = 0;
  const freshCache = () => join(temp.path, `cache-${cacheCount++}`);

  beforeAll(async () => {
    ca = await createTestCa();
    temp = await tempDir("catalog-url-");
    server = await startHttpServer((req, res) => serve(req, res), { tls: ca });
  });
  afterAll(async () => {
    await server?.stop();
    await ca?.remove();
    await temp?.remove();
  });
  beforeEach(() => {
    overrides = new Map();
    server.requests.length = 0;
    delays.length = 0;
  });

  it("yields the same index as the path source, then revalidates with ETags and requests no object again", async () => {
    const [fromPath] = await readSources(catalogConfig([pathSource(0, ocxIndexDir)]), { warn: () => {} });
    const cacheDir = freshCache();
    const [fromUrl] = await readSources(catalogConfig([urlSource()]), options(cacheDir));
    if (fromPath === undefined || fromUrl === undefined) throw new Error("no index");
    expect(summary(fromUrl)).toEqual(summary(fromPath));
    // Objects shared by several packages may come from the digest-addressed cache after the first.
    const urls = server.requests.map((r) => r.url);
    expect(new Set(urls).size).toBe(urls.length);
    expect(server.requests.every((r) => r.method === "GET")).toBe(true);
    const served = server.requests.filter((r) => r.status === 200).map((r) => r.url.slice(1));
    expect(served.every((path) => fromUrl.files.has(path))).toBe(true);
    expect(served.length).toBeGreaterThan(800);
    const pngLogos = fromUrl.packages.filter((p) => p.logo?.ext === "png");
    const svgProbes = pngLogos.map((p) => `/p/${p.path}/o/sha256/${p.logo?.digest.slice(7)}.svg`);
    expect(server.requests.filter((r) => r.status !== 200).map((r) => [r.url, r.status])).toEqual(
      svgProbes.map((url) => [url, 404]),
    );

    server.requests.length = 0;
    const [again] = await readSources(catalogConfig([urlSource()]), options(cacheDir));
    if (again === undefined) throw new Error("no index");
    expect(summary(again)).toEqual(summary(fromPath));
    expect(server.requests.map((r) => [r.url, r.status, typeof r.headers["if-none-match"]]).sort()).toEqual([
      ["/c/index.json", 304, "string"],
      ["/config.json", 304, "string"],
    ]);
  });

  it("refuses a redirect, naming the URL (exit 69)", async () => {
    overrides.set("config.json", [
      { status: 301, headers: { location: "https://elsewhere.example/config.json" } },
    ]);
    const error = await readSources(catalogConfig([urlSource()]), options(freshCache())).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      exitCode: 69,
      message: `${server.url}/config.json: HTTP 301 redirect to https://elsewhere.example/config.json refused (redirects are not followed)`,
    });
    expect(server.requests.map((r) => r.url)).toEqual(["/config.json"]);
  });

  it("retries a 502 and a 429 with backoff, then succeeds", async () => {
    overrides.set("c/index.json", [{ status: 502 }, { status: 429 }]);
    const [index] = await readSources(catalogConfig([urlSource()]), options(freshCache()));
    expect(index?.packages).toHaveLength(62);
    expect(server.requests.filter((r) => r.url === "/c/index.json").map((r) => r.status)).toEqual([
      502, 429, 200,
    ]);
    expect(delays).toEqual([500, 2000]);
  });

  it("gives up after three attempts (exit 69)", async () => {
    overrides.set("config.json", [{ status: 503 }, { status: 503 }, { status: 503 }]);
    const error = await readSources(catalogConfig([urlSource()]), options(freshCache())).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      exitCode: 69,
      message: `${server.url}/config.json: HTTP 503 (after 3 attempts)`,
    });
    expect(server.requests).toHaveLength(3);
  });

  it("skips a root that is oversized (declared or streamed) or not the bytes c/index.json names, with a warning", async () => {
    overrides.set("p/anchore/syft.json", [{ body: new Uint8Array(5 << 20).fill(32), chunked: true }]);
    overrides.set("p/aquasecurity/trivy.json", [{ body: new Uint8Array(5 << 20).fill(32) }]);
    overrides.set("p/amazon/corretto.json", [{ body: new TextEncoder().encode("{}") }]);
    const catalog = await readJson(join(ocxIndexDir, "c", "index.json"));
    const correttoDigest = (catalog.packages as Record<string, string>)["amazon/corretto"];
    const warnings: string[] = [];
    const [index] = await readSources(catalogConfig([urlSource()]), {
      ...options(freshCache()),
      warn: (line) => warnings.push(line),
    });
    expect(index?.packages.map((p) => p.path)).not.toContain("anchore/syft");
    expect(index?.packages).toHaveLength(59);
    expect(warnings).toEqual([
      `sources[0]: skipped package amazon/corretto: ${server.url}/p/amazon/corretto.json: content is ${sha256Of(new TextEncoder().encode("{}"))}, expected ${correttoDigest}`,
      `sources[0]: skipped package anchore/syft: ${server.url}/p/anchore/syft.json: more than the 4194304 bytes allowed`,
      `sources[0]: skipped package aquasecurity/trivy: ${server.url}/p/aquasecurity/trivy.json: 5242880 bytes, more than the 4194304 allowed`,
    ]);
  });

  it("refuses anything but https even if the loader let it through", async () => {
    const error = await readSources(
      catalogConfig([urlSource(0, server.url.replace("https:", "http:"))]),
      options(freshCache()),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toMatch(
      /^INVALID_TYPE: sources\[0\]\.url: "http:\/\/.*" is not an https URL$/,
    );
    expect(server.requests).toEqual([]);
  });
});
