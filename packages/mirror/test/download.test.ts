import { createHash } from "node:crypto";
import { readdir, readFile, writeFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import { ExitCode } from "@pkg/common";
import { createHttpClient, type PooledHttpClient } from "@pkg/net";
import { type RequestHandler, startHttpServer, type TempDir, type TestServer, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createChecksumsSource } from "../src/build/fetch/checksums-source.js";
import { type DownloadDeps, downloadAsset, PARTIAL_SUFFIX } from "../src/build/fetch/download-asset.js";
import { createDownloader } from "../src/build/fetch/downloader.js";
import { VerificationError } from "../src/build/fetch/errors.js";
import { digestPolicyFor } from "../src/build/fetch/verify-policy.js";
import type { UpstreamAsset } from "../src/sources/types.js";
import { DIGEST_POLICIES, type DigestPolicy, type Verify } from "../src/spec/verify.js";

const sha256 = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
const slug = (host: string) => host.replace(/[^A-Za-z0-9]/g, "_");

let dir: TempDir;
let env: NodeJS.ProcessEnv;
const cleanups: Array<() => Promise<unknown>> = [];

beforeEach(async () => {
  dir = await tempDir("mirror-fetch-");
  // HOME is empty and no proxy variable is set: nothing of the machine leaks in
  env = { HOME: dir.path };
  cleanups.push(() => dir.remove());
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function client(): PooledHttpClient {
  const made = createHttpClient({ env });
  cleanups.push(() => made.close());
  return made;
}

async function server(handler: RequestHandler): Promise<TestServer> {
  const started = await startHttpServer(handler);
  cleanups.push(() => started.stop());
  return started;
}

/** Serves fixed files by path; any other path is a 404. */
function files(table: Record<string, Buffer | string>): RequestHandler {
  return (req, res) => {
    const content = table[req.url ?? ""];
    if (content === undefined) res.writeHead(404).end();
    else res.writeHead(200, { "content-length": Buffer.byteLength(content) }).end(content);
  };
}

/** Sends the head and part of the body, then drops the connection. */
function cutShort(res: ServerResponse, content: Buffer): void {
  res.writeHead(200, { "content-length": content.length });
  res.write(content.subarray(0, content.length / 2), () => res.socket?.destroy());
}

const payload = Buffer.alloc(300 * 1024, "tool-bytes ");
const tampered = Buffer.concat([payload.subarray(1), Buffer.from("!")]);
const forgeVerify = (policy: DigestPolicy): DownloadDeps["policy"] =>
  digestPolicyFor({ github_asset_digest: policy, url_index_digest: "off" }, "forgeone_release");

async function listing(): Promise<string[]> {
  return (await readdir(dir.path, { recursive: true })).sort();
}

describe("downloadAsset", () => {
  test("streams to a temporary name and renames when complete; the result names its digest", async () => {
    const site = await server(files({ "/tool.tgz": payload }));
    const dest = join(dir.path, "work", "1.0.0", "linux-amd64", "tool.tgz");
    const asset = { name: "tool.tgz", url: `${site.url}/tool.tgz`, digest: sha256(payload) };
    const result = await downloadAsset(asset, dest, { http: client(), policy: forgeVerify("require") });
    expect(result).toEqual({ path: dest, bytes: payload.length, sha256: sha256(payload), reused: false });
    expect((await readFile(dest)).equals(payload)).toBe(true);
    expect(await readdir(join(dir.path, "work", "1.0.0", "linux-amd64"))).toEqual(["tool.tgz"]);
  });

  test("an interrupted download leaves nothing taken as complete, and the next run completes it", async () => {
    let attempts = 0;
    const site = await server((_req, res) => {
      attempts += 1;
      if (attempts === 1) cutShort(res, payload);
      else res.writeHead(200, { "content-length": payload.length }).end(payload);
    });
    const dest = join(dir.path, "tool.tgz");
    const asset = { name: "tool.tgz", url: `${site.url}/tool.tgz` };
    const deps = { http: client(), policy: forgeVerify("if_present") };
    const failure = downloadAsset(asset, dest, deps);
    await expect(failure).rejects.toMatchObject({ exitCode: ExitCode.Unavailable });
    await expect(failure).rejects.toThrow(/^asset tool.tgz: download failed: .*download interrupted/);
    expect(await listing()).toEqual([]);
    const result = await downloadAsset(asset, dest, deps);
    expect(result.reused).toBe(false);
    expect((await readFile(dest)).equals(payload)).toBe(true);
  });

  test("a .partial left by a crashed run is discarded, never taken as done", async () => {
    const site = await server(files({ "/tool.tgz": payload }));
    const dest = join(dir.path, "tool.tgz");
    await writeFile(dest + PARTIAL_SUFFIX, payload.subarray(0, 1000));
    const result = await downloadAsset({ name: "tool.tgz", url: `${site.url}/tool.tgz` }, dest, {
      http: client(),
      policy: forgeVerify("if_present"),
    });
    expect(result).toMatchObject({ reused: false, bytes: payload.length });
    expect(site.requests).toHaveLength(1);
    expect(await listing()).toEqual(["tool.tgz"]);
  });

  test("a complete earlier download is reused without a request and re-verified", async () => {
    const site = await server(files({ "/tool.tgz": payload }));
    const dest = join(dir.path, "tool.tgz");
    const asset = { name: "tool.tgz", url: `${site.url}/tool.tgz`, digest: sha256(payload) };
    await downloadAsset(asset, dest, { http: client(), policy: forgeVerify("if_present") });
    const again = await downloadAsset(asset, dest, { http: client(), policy: forgeVerify("if_present") });
    expect(again).toEqual({ path: dest, bytes: payload.length, sha256: sha256(payload), reused: true });
    expect(site.requests).toHaveLength(1);
  });

  test("an earlier download whose declared digest no longer matches is discarded and fetched again", async () => {
    const site = await server(files({ "/tool.tgz": payload }));
    const dest = join(dir.path, "tool.tgz");
    await writeFile(dest, tampered);
    const asset = { name: "tool.tgz", url: `${site.url}/tool.tgz`, digest: sha256(payload) };
    const result = await downloadAsset(asset, dest, { http: client(), policy: forgeVerify("if_present") });
    expect(result.reused).toBe(false);
    expect(site.requests).toHaveLength(1);
    expect((await readFile(dest)).equals(payload)).toBe(true);
  });

  test("an upstream error status fails with exit 69 naming the asset and URL, writing nothing", async () => {
    const site = await server(files({}));
    const failure = downloadAsset(
      { name: "gone.tgz", url: `${site.url}/gone.tgz` },
      join(dir.path, "gone.tgz"),
      {
        http: client(),
        policy: forgeVerify("if_present"),
      },
    );
    await expect(failure).rejects.toMatchObject({
      exitCode: ExitCode.Unavailable,
      message: `asset gone.tgz: download from ${site.url}/gone.tgz answered HTTP 404`,
    });
    expect(await listing()).toEqual([]);
  });

  test("an asset over maxBytes is refused and nothing is kept", async () => {
    const site = await server(files({ "/tool.tgz": payload }));
    const failure = downloadAsset(
      { name: "tool.tgz", url: `${site.url}/tool.tgz` },
      join(dir.path, "tool.tgz"),
      {
        http: client(),
        policy: forgeVerify("off"),
        maxBytes: 1024,
      },
    );
    await expect(failure).rejects.toThrow(/^asset tool.tgz: download failed: .*larger than 1024 bytes/);
    expect(await listing()).toEqual([]);
  });
});

describe("stopping a download", () => {
  test("an aborted signal closes the body's connection, removes the partial file and fails as cancelled", async () => {
    let closedEarly = false;
    let bodyStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      bodyStarted = resolve;
    });
    const site = await server((_req, res) => {
      // a body that only ends when the client goes away
      res.writeHead(200, { "content-length": 64 << 20 });
      res.write(payload, () => bodyStarted());
      const drip = setInterval(() => res.write(Buffer.alloc(1024)), 20);
      res.on("close", () => {
        clearInterval(drip);
        closedEarly = !res.writableFinished;
      });
    });
    const dest = join(dir.path, "w", "tool.tgz");
    const controller = new AbortController();
    const downloading = downloadAsset({ name: "tool.tgz", url: `${site.url}/tool.tgz` }, dest, {
      http: client(),
      policy: forgeVerify("off"),
      signal: controller.signal,
    });
    await started;
    controller.abort();
    await expect(downloading).rejects.toMatchObject({
      detail: "cancelled",
      message: "asset tool.tgz: download cancelled",
    });
    await expect.poll(() => closedEarly, { timeout: 30_000 }).toBe(true);
    expect(await listing()).toEqual(["w"]);
  });

  test("a queued download whose signal is already aborted never sends a request", async () => {
    const site = await server(files({ "/tool.tgz": payload }));
    const downloader = createDownloader({
      http: client(),
      verify: { github_asset_digest: "off", url_index_digest: "off" },
      sourceType: "forgeone_release",
      maxDownloads: 1,
    });
    const asset = { name: "tool.tgz", url: `${site.url}/tool.tgz` };
    const download = downloader.download({
      version: "1.0.0",
      asset,
      dest: join(dir.path, "w", "tool.tgz"),
      signal: AbortSignal.abort(),
    });
    await expect(download).rejects.toMatchObject({ detail: "cancelled" });
    expect(site.requests).toEqual([]);
  });
});

describe("verify policies", () => {
  type Declared = "declared" | "undeclared" | "mismatch";
  // what each policy does with each kind of declaration: "ok", or the failure's message pattern
  const outcomes: Record<DigestPolicy, Record<Declared, "ok" | RegExp>> = {
    off: { declared: "ok", undeclared: "ok", mismatch: "ok" },
    if_present: { declared: "ok", undeclared: "ok", mismatch: /digest mismatch/ },
    require: {
      declared: "ok",
      undeclared: /no digest declared upstream, and verify\.(github_asset|url_index)_digest is require/,
      mismatch: /digest mismatch/,
    },
  };
  const rows = (["forgeone_release", "url_index"] as const).flatMap((source) =>
    DIGEST_POLICIES.flatMap((policy) =>
      (["declared", "undeclared", "mismatch"] as const).map(
        (declared) => [source, policy, declared] as const,
      ),
    ),
  );

  test.each(rows)("%s, %s, %s", async (source, policy, declared) => {
    const site = await server(files({ "/tool.tgz": payload }));
    // the other key is set to the opposite extreme, so that picking the wrong key shows
    const other: DigestPolicy = policy === "off" ? "require" : "off";
    const verify: Verify =
      source === "forgeone_release"
        ? { github_asset_digest: policy, url_index_digest: other }
        : { github_asset_digest: other, url_index_digest: policy };
    const digest = { declared: sha256(payload), undeclared: undefined, mismatch: sha256(tampered) }[declared];
    const asset: UpstreamAsset = { name: "tool.tgz", url: `${site.url}/tool.tgz`, digest };
    const dest = join(dir.path, "tool.tgz");
    const download = downloadAsset(asset, dest, { http: client(), policy: digestPolicyFor(verify, source) });
    const expected = outcomes[policy][declared];
    if (expected === "ok") {
      await expect(download).resolves.toMatchObject({ reused: false, sha256: sha256(payload) });
      expect(await listing()).toEqual(["tool.tgz"]);
    } else {
      await expect(download).rejects.toBeInstanceOf(VerificationError);
      await expect(download).rejects.toMatchObject({ exitCode: ExitCode.Failed, asset: "tool.tgz" });
      await expect(download).rejects.toThrow(expected);
      // require fires after the download; nothing unverified is kept
      expect(site.requests).toHaveLength(1);
      expect(await listing()).toEqual([]);
    }
  });

  test("a mismatch names the asset, the expected digest, its source and the actual digest", async () => {
    const site = await server(files({ "/tool.tgz": payload }));
    const asset = { name: "tool.tgz", url: `${site.url}/tool.tgz`, digest: sha256(tampered) };
    await expect(
      downloadAsset(asset, join(dir.path, "tool.tgz"), { http: client(), policy: forgeVerify("if_present") }),
    ).rejects.toMatchObject({
      message: `asset tool.tgz: digest mismatch: expected ${sha256(tampered)} from the digest declared upstream (verify.github_asset_digest), got ${sha256(payload)}`,
      expected: sha256(tampered),
      actual: sha256(payload),
    });
  });

  test("python sources ignore both policies", async () => {
    const site = await server(files({ "/w.whl": payload }));
    const policy = digestPolicyFor({ github_asset_digest: "require", url_index_digest: "require" }, "pypi");
    const asset = { name: "w.whl", url: `${site.url}/w.whl`, digest: sha256(tampered) };
    await expect(
      downloadAsset(asset, join(dir.path, "w.whl"), { http: client(), policy }),
    ).resolves.toMatchObject({
      reused: false,
    });
  });

  test("a rewritten download host serving other bytes fails against the digest discovery declared", async () => {
    // discovery saw the forge's digest; url_rewrite moved only the download to the mirror host
    const mirror = await server(files({ "/releases/tool.tgz": tampered }));
    const asset = { name: "tool.tgz", url: `${mirror.url}/releases/tool.tgz`, digest: sha256(payload) };
    const failure = downloadAsset(asset, join(dir.path, "tool.tgz"), {
      http: client(),
      policy: forgeVerify("if_present"),
    });
    await expect(failure).rejects.toMatchObject({ expected: sha256(payload), actual: sha256(tampered) });
    expect(await listing()).toEqual([]);
  });

  test("a reused download with require and no declared digest fails without a request", async () => {
    const site = await server(files({ "/tool.tgz": payload }));
    const dest = join(dir.path, "tool.tgz");
    await writeFile(dest, payload);
    const failure = downloadAsset({ name: "tool.tgz", url: `${site.url}/tool.tgz` }, dest, {
      http: client(),
      policy: forgeVerify("require"),
    });
    await expect(failure).rejects.toThrow(/no digest declared upstream/);
    expect(site.requests).toHaveLength(0);
  });
});

describe("checksums_file", () => {
  const sumsFor = (entries: Record<string, Buffer>) =>
    `# sha256sum output\n\n${Object.entries(entries)
      .map(([name, bytes]) => `${sha256(bytes).slice("sha256:".length)}  ${name}`)
      .join("\n")}\n`;

  async function sidecarFixture(sums: string) {
    const assets = await server(files({ "/tool.tgz": payload, "/other.tgz": payload }));
    const trusted = await server(files({ "/SHA256SUMS": sums }));
    const sidecar = await createChecksumsSource(client(), `${trusted.url}/SHA256SUMS`).sidecar();
    return { assets, trusted, sidecar };
  }

  test("the asset is matched by name and verified, independent of the digest policies", async () => {
    const { assets, sidecar } = await sidecarFixture(sumsFor({ "tool.tgz": payload, "other.tgz": tampered }));
    const ok = downloadAsset(
      { name: "tool.tgz", url: `${assets.url}/tool.tgz` },
      join(dir.path, "tool.tgz"),
      {
        http: client(),
        policy: forgeVerify("off"),
        sidecar,
      },
    );
    await expect(ok).resolves.toMatchObject({ reused: false });
    const bad = downloadAsset(
      { name: "other.tgz", url: `${assets.url}/other.tgz` },
      join(dir.path, "other.tgz"),
      {
        http: client(),
        policy: forgeVerify("off"),
        sidecar,
      },
    );
    await expect(bad).rejects.toMatchObject({
      exitCode: ExitCode.Failed,
      asset: "other.tgz",
      expected: sha256(tampered),
    });
    await expect(bad).rejects.toThrow(/from checksums file http:\/\/127\.0\.0\.1:[0-9]+\/SHA256SUMS, got/);
    expect(await listing()).toEqual(["tool.tgz"]);
  });

  test("an asset the checksums file does not list fails before any download", async () => {
    const { assets, sidecar } = await sidecarFixture(sumsFor({ "tool.tgz": payload }));
    const failure = downloadAsset(
      { name: "other.tgz", url: `${assets.url}/other.tgz` },
      join(dir.path, "o.tgz"),
      {
        http: client(),
        policy: forgeVerify("if_present"),
        sidecar,
      },
    );
    await expect(failure).rejects.toBeInstanceOf(VerificationError);
    await expect(failure).rejects.toThrow(
      /^asset other.tgz: not listed in checksums file .* \(verify.checksums_file\)$/,
    );
    expect(assets.requests).toHaveLength(0);
  });

  test("both the declared digest and the checksums file must agree with the bytes", async () => {
    const { assets, sidecar } = await sidecarFixture(sumsFor({ "tool.tgz": payload }));
    const failure = downloadAsset(
      { name: "tool.tgz", url: `${assets.url}/tool.tgz`, digest: sha256(tampered) },
      join(dir.path, "tool.tgz"),
      { http: client(), policy: forgeVerify("if_present"), sidecar },
    );
    await expect(failure).rejects.toThrow(/verify.github_asset_digest/);
  });

  test("an unreachable or malformed checksums file fails with 69 or 65", async () => {
    const trusted = await server(files({ "/bad": "not a checksum line\n" }));
    const missing = createChecksumsSource(client(), `${trusted.url}/missing`).sidecar();
    await expect(missing).rejects.toMatchObject({ exitCode: ExitCode.Unavailable });
    await expect(missing).rejects.toThrow(/checksums file .*\/missing answered HTTP 404/);
    const bad = createChecksumsSource(client(), `${trusted.url}/bad`).sidecar();
    await expect(bad).rejects.toMatchObject({ exitCode: ExitCode.Data });
  });
});

describe("createDownloader", () => {
  test("never runs more than max_downloads transfers at once, and reaches that bound", async () => {
    const limit = 2;
    const total = 5;
    let inFlight = 0;
    let peak = 0;
    const held: Array<() => void> = [];
    let holding = true;
    let saturated: () => void = () => {};
    const full = new Promise<void>((resolve) => {
      saturated = resolve;
    });
    const site = await server(async (_req, res) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      res.on("finish", () => {
        inFlight -= 1;
      });
      if (holding) {
        const released = new Promise<void>((resolve) => held.push(resolve));
        if (held.length === limit) saturated();
        await released;
      }
      res.writeHead(200, { "content-length": payload.length }).end(payload);
    });
    const downloader = createDownloader({
      http: client(),
      verify: { github_asset_digest: "if_present", url_index_digest: "if_present" },
      sourceType: "url_index",
      maxDownloads: limit,
    });
    const all = Promise.all(
      Array.from({ length: total }, (_, i) =>
        downloader.download({
          version: "1.0.0",
          asset: { name: `a${i}.tgz`, url: `${site.url}/a${i}.tgz`, digest: sha256(payload) },
          dest: join(dir.path, `p${i}`, `a${i}.tgz`),
        }),
      ),
    );
    // the server holds every answer: once `limit` requests wait there, the rest must be queued in the pool
    const releaseAll = () => {
      holding = false;
      for (const release of held.splice(0)) release();
    };
    try {
      await full;
      expect(downloader.active).toBe(limit);
      expect(downloader.pending).toBe(total - limit);
    } finally {
      releaseAll();
    }
    const results = await all;
    expect(results.map((r) => r.bytes)).toEqual(Array(total).fill(payload.length));
    expect(site.requests).toHaveLength(total);
    expect(peak).toBe(limit);
  });

  function sumsDownloader(sumsUrl: string, maxDownloads: number) {
    return createDownloader({
      http: client(),
      verify: { github_asset_digest: "off", url_index_digest: "require", checksums_file: sumsUrl },
      sourceType: "url_index",
      maxDownloads,
    });
  }

  test("fetches the checksums file once per run, shared by every version and platform, and applies the source's policy", async () => {
    const assets = await server(files({ "/a.tgz": payload, "/b.tgz": payload, "/c.tgz": payload }));
    const line = (name: string) => `${sha256(payload).slice(7)}  ${name}`;
    const trusted = await server(
      files({ "/SUMS": [line("a.tgz"), line("b.tgz"), line("c.tgz")].join("\n") }),
    );
    const downloader = sumsDownloader(`${trusted.url}/SUMS`, 3);
    const task = (version: string, name: string) =>
      downloader.download({
        version,
        asset: { name, url: `${assets.url}/${name}`, digest: sha256(payload) },
        dest: join(dir.path, version, name),
      });
    // three versions by three platforms, all asked for at once: one request, shared while in flight
    await Promise.all(
      ["1.0.0", "1.1.0", "2.0.0"].flatMap((v) => [task(v, "a.tgz"), task(v, "b.tgz"), task(v, "c.tgz")]),
    );
    await task("2.1.0", "a.tgz");
    expect(trusted.requests.map((r) => r.url)).toEqual(["/SUMS"]);
    expect(assets.requests).toHaveLength(10);
    // url_index_digest: require applies to this url_index source
    await expect(
      downloader.download({
        version: "2.0.0",
        asset: { name: "b.tgz", url: `${assets.url}/b.tgz` },
        dest: join(dir.path, "2.0.0", "b.tgz"),
      }),
    ).rejects.toThrow(/verify.url_index_digest is require/);
    expect(trusted.requests).toHaveLength(1);
  });

  test("a checksums file that fails is fetched once: every pair reports that same failure", async () => {
    const assets = await server(files({ "/a.tgz": payload, "/b.tgz": payload }));
    const trusted = await server(files({}));
    const downloader = sumsDownloader(`${trusted.url}/SUMS`, 2);
    const task = (version: string, name: string) =>
      downloader.download({
        version,
        asset: { name, url: `${assets.url}/${name}`, digest: sha256(payload) },
        dest: join(dir.path, version, name),
      });
    const pairs = ["1.0.0", "1.1.0"].flatMap((v) => [task(v, "a.tgz"), task(v, "b.tgz")]);
    const outcomes = await Promise.allSettled([...pairs, task("1.2.0", "a.tgz")]);
    outcomes.push(...(await Promise.allSettled([task("1.3.0", "b.tgz")])));
    const reasons = outcomes.map((o) => (o.status === "rejected" ? (o.reason as Error).message : "ok"));
    expect(reasons[0]).toMatch(/^checksums file http:\/\/127\.0\.0\.1:[0-9]+\/SUMS answered HTTP 404/);
    expect(new Set(reasons).size).toBe(1);
    expect(outcomes[0]).toMatchObject({ reason: { exitCode: ExitCode.Unavailable } });
    expect(trusted.requests).toHaveLength(1);
    expect(assets.requests).toHaveLength(0);
  });
});

describe("credentials", () => {
  test("each host gets only its own ladder credential: mirror, redirect target and checksums host", async () => {
    const cdn = await server(files({ "/blob": payload }));
    const mirror = await server((_req, res) => res.writeHead(302, { location: `${cdn.url}/blob` }).end());
    const trusted = await server(files({ "/SUMS": `${sha256(payload).slice(7)}  tool.tgz\n` }));
    env[`PKG_AUTH_${slug(mirror.host)}_TOKEN`] = "mirror-token";
    env[`PKG_AUTH_${slug(trusted.host)}_USER`] = "sums-user";
    env[`PKG_AUTH_${slug(trusted.host)}_TOKEN`] = "sums-token";
    const http = client();
    const sidecar = await createChecksumsSource(http, `${trusted.url}/SUMS`).sidecar();
    await downloadAsset(
      { name: "tool.tgz", url: `${mirror.url}/tool.tgz` },
      join(dir.path, "w", "tool.tgz"),
      {
        http,
        policy: forgeVerify("if_present"),
        sidecar,
      },
    );
    expect(mirror.requests[0]?.headers.authorization).toBe("Bearer mirror-token");
    expect(cdn.requests[0]?.headers.authorization).toBeUndefined();
    expect(trusted.requests[0]?.headers.authorization).toBe(
      `Basic ${Buffer.from("sums-user:sums-token").toString("base64")}`,
    );
  });
});
