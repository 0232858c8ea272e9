import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { silentLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import {
  createTestCa,
  type RequestHandler,
  startHttpServer,
  type TempDir,
  type TestCa,
  tempDir,
} from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { listUrlIndex, type UrlIndexDeps } from "../src/sources/url-index.js";
import { URL_REWRITE_ENV } from "../src/sources/url-rewrite-env.js";
import { DEFAULT_GENERATOR_TIMEOUT_SECONDS, type GeneratorSpec } from "../src/spec/generator.js";
import type { UrlIndexSource } from "../src/spec/source-url-index.js";

const HEX = "AB".repeat(32);
const document = JSON.stringify({
  $schema: "https://schemas.pkg-tools.dev/schemas/url-index/v1.json",
  versions: {
    "1.2.0": {
      assets: {
        "tool-linux-amd64.tar.gz": {
          url: "https://dl.example.com:443/v1.2.0/tool-linux-amd64.tar.gz",
          sha256: HEX,
        },
        "tool-darwin-arm64.tar.gz": "https://other.example.org/tool-darwin-arm64.tar.gz",
      },
    },
    "1.3.0-rc1": { assets: { "tool-linux-amd64.tar.gz": "https://dl.example.com/v1.3.0-rc1/t.tar.gz" } },
    "1.3.0-beta": { prerelease: false, assets: {} },
  },
});

let ca: TestCa;
let dir: TempDir;
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  ca = await createTestCa();
});
afterAll(async () => {
  await ca.remove();
});
beforeEach(async () => {
  dir = await tempDir("url-index-");
  cleanups.push(() => dir.remove());
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Run dependencies with a real client; `env` is the whole environment the run sees. */
function deps(env: NodeJS.ProcessEnv = {}, extra: Partial<UrlIndexDeps> = {}): UrlIndexDeps {
  const runEnv = { HOME: dir.path, PATH: process.env.PATH, ...env };
  const http = createHttpClient({ env: runEnv });
  cleanups.push(() => http.close());
  return { http, specDir: dir.path, env: runEnv, log: silentLogger, ...extra };
}

async function server(handler: RequestHandler, tls?: TestCa) {
  const started = await startHttpServer(handler, tls ? { tls } : {});
  cleanups.push(() => started.stop());
  return started;
}

const serve =
  (body: string, status = 200): RequestHandler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  };

function generator(command: string[], extra: Partial<GeneratorSpec> = {}): UrlIndexSource {
  return {
    type: "url_index",
    generator: { command, timeout_seconds: DEFAULT_GENERATOR_TIMEOUT_SECONDS, ...extra },
  };
}

/** A process counts as gone once it no longer exists or is a zombie waiting to be reaped. */
async function isRunning(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

describe("url", () => {
  test("an index over HTTPS trusted through SSL_CERT_FILE: versions, pre-releases, digests", async () => {
    const site = await server(serve(document), ca);
    const source: UrlIndexSource = { type: "url_index", url: `${site.url}/index.json` };

    const untrusted = listUrlIndex(source, deps());
    await expect(untrusted).rejects.toMatchObject({ exitCode: 69 });
    await expect(untrusted).rejects.toThrow(`url index is unreachable: ${site.url}/index.json`);

    const versions = await listUrlIndex(source, deps({ SSL_CERT_FILE: ca.certPath }));
    expect(versions).toEqual([
      {
        version: "1.2.0",
        prerelease: false,
        assets: [
          {
            name: "tool-linux-amd64.tar.gz",
            url: "https://dl.example.com:443/v1.2.0/tool-linux-amd64.tar.gz",
            digest: `sha256:${HEX.toLowerCase()}`,
          },
          { name: "tool-darwin-arm64.tar.gz", url: "https://other.example.org/tool-darwin-arm64.tar.gz" },
        ],
      },
      // no declared flag: the version's own pre-release part decides
      {
        version: "1.3.0-rc1",
        prerelease: true,
        assets: [{ name: "tool-linux-amd64.tar.gz", url: "https://dl.example.com/v1.3.0-rc1/t.tar.gz" }],
      },
      // a declared flag wins
      { version: "1.3.0-beta", prerelease: false, assets: [] },
    ]);
  });

  test("a non-2xx answer is exit 69 naming the URL and the status", async () => {
    const site = await server(serve("gone", 404));
    const listing = listUrlIndex({ type: "url_index", url: `${site.url}/index.json` }, deps());
    await expect(listing).rejects.toMatchObject({ exitCode: 69 });
    await expect(listing).rejects.toThrow(`url index ${site.url}/index.json answered HTTP 404`);
  });

  test("an unreachable host is exit 69 naming the URL", async () => {
    const site = await server(serve(document));
    await site.stop();
    const listing = listUrlIndex({ type: "url_index", url: `${site.url}/index.json` }, deps());
    await expect(listing).rejects.toMatchObject({ exitCode: 69 });
    await expect(listing).rejects.toThrow(`${site.url}/index.json`);
  });

  test("a malformed digest fails at its position before any asset is requested", async () => {
    // the asset points at the index's own host: a download would show in the request log
    const bad = (host: string) =>
      `{\n  "versions": {\n    "1.0.0": {"assets": {"t.tgz": {"url": "http://${host}/t.tgz", "sha256": "abc"}}}\n  }\n}\n`;
    const site = await server((req, res) => serve(bad(req.headers.host ?? ""))(req, res));
    const column = (bad(site.host).split("\n")[2] ?? "").indexOf('"abc"') + 1;
    const listing = listUrlIndex({ type: "url_index", url: `${site.url}/index.json` }, deps());
    await expect(listing).rejects.toMatchObject({ exitCode: 65 });
    await expect(listing).rejects.toThrow(
      `${site.url}/index.json:3:${column}: versions.1.0.0.assets.t.tgz.sha256: "abc" is not a sha256 digest`,
    );
    expect(site.requests.map((r) => r.url)).toEqual(["/index.json"]);
  });

  test("the document's shape is checked like the inline form: unknown keys, missing versions, YAML errors", async () => {
    const answers = [
      '{"versions": {}, "extra": 1}',
      '{"$schema": "x"}',
      '{"versions": {"v1.0": {"assets": {}}}}',
      "{",
    ];
    const site = await server((req, res) => serve(answers[Number(req.url?.slice(1))] ?? "")(req, res));
    const list = (i: number) => listUrlIndex({ type: "url_index", url: `${site.url}/${i}` }, deps());
    await expect(list(0)).rejects.toThrow(/:1:18: extra: unknown key "extra"/);
    await expect(list(1)).rejects.toThrow(/missing required key "versions"/);
    await expect(list(2)).rejects.toThrow(/versions.v1.0: .*starts with "v"/);
    await expect(list(3)).rejects.toMatchObject({ exitCode: 65 });
  });
});

describe("inline versions", () => {
  test("are listed as loaded", async () => {
    const source: UrlIndexSource = {
      type: "url_index",
      versions: {
        "2.0.0": {
          prerelease: true,
          assets: { a: { url: "https://h/a", sha256: `sha256:${"0".repeat(64)}` } },
        },
      },
    };
    expect(await listUrlIndex(source, deps())).toEqual([
      {
        version: "2.0.0",
        prerelease: true,
        assets: [{ name: "a", url: "https://h/a", digest: `sha256:${"0".repeat(64)}` }],
      },
    ]);
  });
});

describe("generator", () => {
  test("runs without a shell in its working directory, inherits the environment, and its stdout is the document", async () => {
    await mkdir(join(dir.path, "tools"));
    await writeFile(
      join(dir.path, "tools", "gen.mjs"),
      [
        'import { basename } from "node:path";',
        "const versions = { [process.env.GEN_VERSION]: { assets: { [basename(process.cwd())]: process.argv[2] } } };",
        "console.log(JSON.stringify({ versions }));",
      ].join("\n"),
    );
    const source = generator([process.execPath, "gen.mjs", "https://h/$HOME;x"], {
      working_directory: "tools",
    });
    expect(await listUrlIndex(source, deps({ GEN_VERSION: "3.1.4" }))).toEqual([
      { version: "3.1.4", prerelease: false, assets: [{ name: "tools", url: "https://h/$HOME;x" }] },
    ]);
  });

  test("empty output is exit 65 naming the command", async () => {
    const listing = listUrlIndex(generator(["true"]), deps());
    await expect(listing).rejects.toMatchObject({ exitCode: 65 });
    await expect(listing).rejects.toThrow('generator ["true"] wrote nothing');
  });

  test("a non-zero exit is exit 69 naming the command and its last stderr line", async () => {
    const listing = listUrlIndex(
      generator(["sh", "-c", "echo '{\"versions\":{}}'; echo boom >&2; exit 3"]),
      deps(),
    );
    await expect(listing).rejects.toMatchObject({ exitCode: 69 });
    await expect(listing).rejects.toThrow(/^generator \["sh","-c",.*\] exited with status 3: boom$/);
  });

  test("a command that does not exist is exit 69 naming it", async () => {
    const listing = listUrlIndex(generator(["no-such-generator-command"]), deps());
    await expect(listing).rejects.toMatchObject({ exitCode: 69 });
    await expect(listing).rejects.toThrow(
      'generator ["no-such-generator-command"] cannot start: command not found',
    );
  });

  test("a timeout kills the generator and everything it started", async () => {
    const script = "sleep 300 & echo $! > grandchild.pid; echo $$ > child.pid; wait";
    const listing = listUrlIndex(generator(["sh", "-c", script], { timeout_seconds: 1 }), deps());
    await expect(listing).rejects.toMatchObject({ exitCode: 69 });
    await expect(listing).rejects.toThrow(/^generator \["sh",.*\] timed out after 1 s and was killed$/);
    for (const file of ["child.pid", "grandchild.pid"]) {
      const pid = Number(await readFile(join(dir.path, file), "utf8"));
      expect(pid).toBeGreaterThan(0);
      expect(await isRunning(pid)).toBe(false);
    }
  });

  test("a bad document is exit 65 with positions named after the command", async () => {
    const listing = listUrlIndex(generator(["echo", "versions: [1]"]), deps());
    await expect(listing).rejects.toMatchObject({ exitCode: 65 });
    await expect(listing).rejects.toThrow(
      'generator ["echo","versions: [1]"]:1:11: versions: expected a mapping',
    );
  });
});

describe("url_rewrite", () => {
  const inline: UrlIndexSource = {
    type: "url_index",
    versions: {
      "1.0.0": {
        assets: {
          a: { url: "HTTPS://DL.example.com:443/files/a.tgz" },
          b: { url: "https://elsewhere.example.com/files/b.tgz" },
        },
      },
    },
    url_rewrite: { from: "https://dl.example.com/files/", to: "https://mirror.internal/dl/" },
  };
  const urls = (versions: Awaited<ReturnType<typeof listUrlIndex>>) =>
    versions.flatMap((v) => v.assets.map((a) => a.url));

  test("moves matching asset URLs, spelled in any equivalent form; others stay", async () => {
    expect(urls(await listUrlIndex(inline, deps()))).toEqual([
      "https://mirror.internal/dl/a.tgz",
      "https://elsewhere.example.com/files/b.tgz",
    ]);
  });

  test("the document itself is fetched from where the spec says; only asset URLs move", async () => {
    const site = await server((req, res) =>
      serve(`{"versions": {"1.0.0": {"assets": {"a": "http://${req.headers.host}/files/a"}}}}`)(req, res),
    );
    const source: UrlIndexSource = {
      type: "url_index",
      url: `${site.url}/index.json`,
      url_rewrite: { from: site.url, to: "http://mirror.invalid/up" },
    };
    expect(urls(await listUrlIndex(source, deps()))).toEqual(["http://mirror.invalid/up/files/a"]);
    expect(site.requests.map((r) => r.url)).toEqual(["/index.json"]);
  });

  test(`${URL_REWRITE_ENV} replaces the spec's block entirely`, async () => {
    const env = { [URL_REWRITE_ENV]: "https://elsewhere.example.com=http://Cache.Local:80/e" };
    expect(urls(await listUrlIndex(inline, deps(env)))).toEqual([
      "HTTPS://DL.example.com:443/files/a.tgz",
      "http://cache.local/e/files/b.tgz",
    ]);
    // blank means unset: the spec's block applies
    expect(urls(await listUrlIndex(inline, deps({ [URL_REWRITE_ENV]: "  " })))[0]).toBe(
      "https://mirror.internal/dl/a.tgz",
    );
  });

  test(`${URL_REWRITE_ENV} refuses credentials and non-http(s) halves without echoing them`, async () => {
    const cases: Array<[string, RegExp]> = [
      ["https://u:s3cret-pw@dl.example.com=https://m.example", /FROM embeds credentials/],
      ["https://dl.example.com=https://u:s3cret-pw@m.example", /TO embeds credentials/],
      ["ftp://dl.example.com=https://m.example", /FROM the scheme must be http or https/],
      ["https://dl.example.com=ftp://m.example", /expected FROM=TO/],
      ["https://dl.example.com", /expected FROM=TO/],
    ];
    for (const [value, message] of cases) {
      const listing = listUrlIndex(inline, deps({ [URL_REWRITE_ENV]: value }));
      await expect(listing).rejects.toMatchObject({ exitCode: 65 });
      await expect(listing).rejects.toThrow(message);
      await expect(listing).rejects.not.toThrow(/s3cret-pw/);
    }
  });

  test("a rewrite the caller resolved is used as given", async () => {
    const rewrite = { from: "https://elsewhere.example.com/", to: "https://x.example/" };
    const listed = await listUrlIndex(inline, deps({}, { urlRewrite: rewrite }));
    expect(urls(listed)[1]).toBe("https://x.example/files/b.tgz");
  });
});
