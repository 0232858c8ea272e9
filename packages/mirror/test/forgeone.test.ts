import type { IncomingMessage, ServerResponse } from "node:http";
import { type Logger, silentTasks } from "@pkg/common";
import { backoffDelay, createHttpClient, type PooledHttpClient } from "@pkg/net";
import { type RequestHandler, startHttpServer, type TestServer } from "@pkg/testkit";
import { afterEach, describe, expect, test } from "vitest";
import { listForgeoneReleases } from "../src/sources/forgeone.js";
import { LISTING_RETRY } from "../src/sources/listing-retry.js";
import { DEFAULT_TAG_PATTERN, type ForgeoneReleaseSource } from "../src/spec/source-forgeone.js";

const hex = (n: number) => n.toString(16).padStart(64, "0");
const releasesPath = "/repos/acme/tool/releases";

interface Release {
  tag_name: string;
  draft: boolean;
  prerelease: boolean;
  assets: Array<{ name: string; browser_download_url: string; digest: string | null }>;
}

function release(tag: string, flags: { draft?: boolean; prerelease?: boolean } = {}, n = 0): Release {
  const download = `https://downloads.example.com/acme/tool/releases/download/${tag}`;
  return {
    tag_name: tag,
    draft: flags.draft ?? false,
    prerelease: flags.prerelease ?? false,
    assets: [
      {
        name: "tool-linux-amd64.tar.gz",
        browser_download_url: `${download}/tool-linux-amd64.tar.gz`,
        digest: `sha256:${hex(n)}`,
      },
      { name: "checksums.txt", browser_download_url: `${download}/checksums.txt`, digest: null },
    ],
  };
}

/** 250 releases, newest first: a non-matching tag, a suffixed pre-release, a draft, a flagged pre-release, then v1.245.0 … v1.0.0. */
const releases: Release[] = [
  release("nightly-2024-06-01"),
  release("v2.0.0-rc1", { prerelease: true }),
  release("v1.999.0", { draft: true }),
  release("v1.246.0", { prerelease: true }),
  ...Array.from({ length: 246 }, (_, i) => release(`v1.${245 - i}.0`, {}, 245 - i)),
];

const source: ForgeoneReleaseSource = {
  type: "forgeone_release",
  owner: "acme",
  repo: "tool",
  tag_pattern: DEFAULT_TAG_PATTERN,
};

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function server(handler: RequestHandler): Promise<TestServer> {
  const started = await startHttpServer(handler);
  cleanups.push(() => started.stop());
  return started;
}

/** Serves `releases` 100 a page, linking each page to the next on `nextBase` (default: itself). */
function forgeHandler(self: () => string, nextBase?: () => string): RequestHandler {
  return (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://forge");
    if (url.pathname !== releasesPath) return res.writeHead(404).end('{"message":"Not Found"}');
    const page = Number(url.searchParams.get("page") ?? "1");
    const perPage = Number(url.searchParams.get("per_page") ?? "30");
    const last = Math.ceil(releases.length / perPage);
    const link = (n: number) => `<${(nextBase ?? self)()}${releasesPath}?per_page=${perPage}&page=${n}>`;
    const links = [page < last ? `${link(page + 1)}; rel="next"` : "", `${link(last)}; rel="last"`];
    res.writeHead(200, { "content-type": "application/json", link: links.filter(Boolean).join(", ") });
    res.end(JSON.stringify(releases.slice((page - 1) * perPage, page * perPage)));
  };
}

function recordingLogger() {
  const lines = { progress: [] as string[], warn: [] as string[] };
  const log: Logger = {
    info() {},
    warn: (message) => lines.warn.push(message),
    progress: (message) => lines.progress.push(message),
    tasks: silentTasks,
  };
  return { log, lines };
}

function setup(env: NodeJS.ProcessEnv, options: { rateLimitMs?: number; random?: () => number } = {}) {
  const http: PooledHttpClient = createHttpClient({ env });
  cleanups.push(() => http.close());
  const sleeps: number[] = [];
  const { log, lines } = recordingLogger();
  const deps = {
    http,
    env,
    log,
    specDir: ".",
    rateLimitMs: options.rateLimitMs ?? 0,
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
    random: options.random ?? (() => 0.5),
  };
  return { deps, sleeps, lines, http };
}

describe("listing forge releases", () => {
  test("250 releases over three pages: drafts and non-matching tags skipped, pre-releases marked", async () => {
    let api = "";
    const forge = await server(forgeHandler(() => api));
    api = forge.url;
    const { deps, sleeps, lines } = setup({ PKG_FORGEONE_API_URL: `${api}/` });
    const rewritten = {
      ...source,
      url_rewrite: { from: "https://downloads.example.com/", to: "https://mirror.example.org/dl/" },
    };
    const versions = await listForgeoneReleases(rewritten, deps);

    expect(versions).toHaveLength(248);
    expect(versions.slice(0, 3)).toEqual([
      {
        version: "2.0.0-rc1",
        prerelease: true,
        tag: "v2.0.0-rc1",
        assets: [
          {
            name: "tool-linux-amd64.tar.gz",
            url: "https://mirror.example.org/dl/acme/tool/releases/download/v2.0.0-rc1/tool-linux-amd64.tar.gz",
            digest: `sha256:${hex(0)}`,
          },
          {
            name: "checksums.txt",
            url: "https://mirror.example.org/dl/acme/tool/releases/download/v2.0.0-rc1/checksums.txt",
          },
        ],
      },
      expect.objectContaining({ version: "1.246.0", prerelease: true, tag: "v1.246.0" }),
      expect.objectContaining({ version: "1.245.0", prerelease: false }),
    ]);
    expect(versions.at(-1)).toMatchObject({ version: "1.0.0", assets: [{ digest: `sha256:${hex(0)}` }, {}] });
    expect(versions.some((v) => v.tag === "v1.999.0" || v.tag?.startsWith("nightly"))).toBe(false);

    expect(forge.requests.map((r) => r.url)).toEqual([
      `${releasesPath}?per_page=100`,
      `${releasesPath}?per_page=100&page=2`,
      `${releasesPath}?per_page=100&page=3`,
    ]);
    for (const request of forge.requests) {
      expect(request.headers.accept).toBe("application/vnd.github+json");
      expect(request.headers.authorization).toBeUndefined();
    }
    expect(sleeps).toEqual([]);
    expect(lines.progress.filter((line) => /page [123]$/.test(line))).toHaveLength(3);
  });

  test("PKG_MIRROR_URL_REWRITE replaces the spec's rewrite; a bad one is refused before any request", async () => {
    let api = "";
    const forge = await server(forgeHandler(() => api));
    api = forge.url;
    const spec = {
      ...source,
      url_rewrite: { from: "https://downloads.example.com/", to: "https://spec.example/" },
    };
    const env = {
      PKG_FORGEONE_API_URL: api,
      PKG_MIRROR_URL_REWRITE: "https://downloads.example.com/=https://env.example/x/",
    };
    const versions = await listForgeoneReleases(spec, setup(env).deps);
    expect(versions[0]?.assets[0]?.url).toMatch(/^https:\/\/env\.example\/x\/acme\/tool\//);

    const before = forge.requests.length;
    const bad = {
      PKG_FORGEONE_API_URL: api,
      PKG_MIRROR_URL_REWRITE: "https://downloads.example.com/=ftp://x.example/",
    };
    await expect(listForgeoneReleases(spec, setup(bad).deps)).rejects.toMatchObject({ exitCode: 65 });
    expect(forge.requests.length).toBe(before);
  });

  test("rate_limit_ms pauses between pages, not before the first", async () => {
    let api = "";
    const forge = await server(forgeHandler(() => api));
    api = forge.url;
    const { deps, sleeps } = setup({ PKG_FORGEONE_API_URL: api }, { rateLimitMs: 250 });
    await listForgeoneReleases(source, deps);
    expect(sleeps).toEqual([250, 250]);
  });

  test("FORGEONE_TOKEN goes to the API host only, never to a host a Link names", async () => {
    const elsewhere = await server(forgeHandler(() => elsewhere.url));
    let api = "";
    const forge = await server(
      forgeHandler(
        () => api,
        () => elsewhere.url,
      ),
    );
    api = forge.url;
    const { deps } = setup({ PKG_FORGEONE_API_URL: api, FORGEONE_TOKEN: "forge-token-1" });
    const versions = await listForgeoneReleases(source, deps);
    expect(versions).toHaveLength(248);
    expect(forge.requests.map((r) => r.headers.authorization)).toEqual(["Bearer forge-token-1"]);
    expect(elsewhere.requests).toHaveLength(2);
    expect(elsewhere.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  });
});

describe("listing failures", () => {
  test("a page failing twice with 502 is retried after 1 s and 2 s, jittered", async () => {
    let api = "";
    let failures = 0;
    const pages = forgeHandler(() => api);
    const forge = await server((req, res) => {
      if (req.url?.endsWith("page=2") && failures < 2) {
        failures += 1;
        return res.writeHead(502).end("bad gateway");
      }
      return pages(req, res);
    });
    api = forge.url;
    const randoms = [0, 0.999];
    const { deps, sleeps, lines } = setup(
      { PKG_FORGEONE_API_URL: api },
      { random: () => randoms.shift() ?? 0.5 },
    );
    const versions = await listForgeoneReleases(source, deps);
    expect(versions).toHaveLength(248);
    expect(forge.requests.map((r) => r.status)).toEqual([200, 502, 502, 200, 200]);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBe(900);
    expect(sleeps[1]).toBeGreaterThanOrEqual(1800);
    expect(sleeps[1]).toBeLessThanOrEqual(2200);
    expect(sleeps[1]).toBeGreaterThan(2100);
    expect(lines.warn).toHaveLength(2);
    expect(lines.warn[0]).toMatch(/HTTP 502; retry 1\/5 in 0\.9 s/);
  });

  test("the spec's schedule: 5 retries, 1 s doubling, 30 s cap, ±10% jitter", () => {
    expect(LISTING_RETRY).toMatchObject({ retries: 5, firstDelayMs: 1000, maxDelayMs: 30_000 });
    expect([0, 1, 2, 3, 4, 5, 6].map((retry) => backoffDelay(LISTING_RETRY, retry + 1, 0.5))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000,
    ]);
    expect(backoffDelay(LISTING_RETRY, 1, 0)).toBe(900);
    expect(backoffDelay(LISTING_RETRY, 11, 0)).toBe(27_000);
    expect(backoffDelay(LISTING_RETRY, 11, 0.999_999)).toBe(33_000);
  });

  test("a page that keeps failing (a dropped connection, then 429) gives up after 5 retries with exit 69", async () => {
    let requests = 0;
    const forge = await server((req, res) => {
      requests += 1;
      if (requests % 2 === 1) {
        req.socket.destroy();
        return;
      }
      res.writeHead(429, { "content-type": "application/json" }).end('{"message":"slow down"}');
    });
    const { deps, sleeps } = setup({ PKG_FORGEONE_API_URL: forge.url });
    const failure = listForgeoneReleases(source, deps);
    await expect(failure).rejects.toMatchObject({ exitCode: 69 });
    await expect(failure).rejects.toThrow(/answered 429 .*: slow down/);
    expect(requests).toBe(6);
    expect(sleeps).toEqual([1000, 2000, 4000, 8000, 16_000]);
  });

  test("a 403 fails at once with exit 69, the status and the API's message", async () => {
    const forge = await server((_req, res) =>
      res.writeHead(403, { "content-type": "application/json" }).end(
        JSON.stringify({
          message: "API rate limit exceeded for 127.0.0.1.",
          documentation_url: "https://docs",
        }),
      ),
    );
    const { deps, sleeps } = setup({ PKG_FORGEONE_API_URL: forge.url });
    const failure = listForgeoneReleases(source, deps);
    await expect(failure).rejects.toMatchObject({ exitCode: 69 });
    await expect(failure).rejects.toThrow(
      /listing releases of acme\/tool: the forge API answered 403 .*: API rate limit exceeded for 127\.0\.0\.1\./,
    );
    expect(forge.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  test("a 404 fails at once with exit 69", async () => {
    let api = "";
    const forge = await server(forgeHandler(() => api));
    api = forge.url;
    const { deps } = setup({ PKG_FORGEONE_API_URL: api });
    const failure = listForgeoneReleases({ ...source, repo: "missing" }, deps);
    await expect(failure).rejects.toMatchObject({ exitCode: 69 });
    await expect(failure).rejects.toThrow(/answered 404 .*: Not Found/);
    expect(forge.requests).toHaveLength(1);
  });

  test("an answer that is not a release list fails with exit 69", async () => {
    const forge = await server((_req, res) => res.end('{"releases": []}'));
    const { deps } = setup({ PKG_FORGEONE_API_URL: forge.url });
    await expect(listForgeoneReleases(source, deps)).rejects.toMatchObject({ exitCode: 69 });
  });
});
