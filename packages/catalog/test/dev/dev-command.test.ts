import { once } from "node:events";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { get } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { catalogBin } from "../support/catalog-project.js";
import { type DevProcess, killLeftoverDevProcesses, startDev } from "../support/dev-process.js";
import { type EventClient, openEvents } from "../support/event-client.js";
import { publishRoot } from "../support/source-fixtures.js";
import { type SyntheticIndex, writeSyntheticIndex } from "../support/synthetic-index.js";

const reloadTag = '<script src="/__pkg-dev/reload.js" defer></script>';

let work: TempDir;
/** The dev server's TMPDIR: holds its private build directory and nothing else. */
let tmp: string;
let index: SyntheticIndex;
let dev: DevProcess | undefined;
let events: EventClient | undefined;

const baseConfig = {
  sources: [{ path: "index", root: true }],
  brand: { title: "Dev catalog" },
  css: "site.css",
};

async function writeConfig(config: unknown): Promise<void> {
  await writeFile(join(work.path, "catalog.config.json"), JSON.stringify(config, null, 2));
}

beforeEach(async () => {
  work = await tempDir("catalog-dev-");
  tmp = join(work.path, "tmp");
  await writeFile(join(work.path, "site.css"), "body { color: teal; }\n");
  await writeConfig(baseConfig);
  index = await writeSyntheticIndex(join(work.path, "index"), { packages: 3, readmeBytes: 500 });
  await mkdir(tmp);
});

afterEach(async () => {
  events?.close();
  events = undefined;
  if (dev !== undefined) await dev.stop("SIGKILL");
  dev = undefined;
  killLeftoverDevProcesses();
  await work.remove();
});

const start = async (...args: string[]) => {
  dev = await startDev(args, { cwd: work.path, env: { TMPDIR: tmp } });
  return dev;
};

async function fetchText(url: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(url, { redirect: "manual" });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

/** The status for a request path sent as is (fetch would normalise dot segments away). */
function rawStatus(base: string, path: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    get({ hostname, port, path }, (response) => {
      response.resume();
      resolve(response.statusCode);
    }).once("error", reject);
  });
}

/** Waits for reload events until the served page at `url` satisfies `check` (one save may take
 *  more than one rebuild to settle). */
async function reloadUntil(url: string, check: (page: { status: number; body: string }) => boolean) {
  for (;;) {
    const event = await events?.next();
    if (event?.name === "reload" && check(await fetchText(url))) return;
  }
}

describe("pkg-catalog dev", () => {
  it("serves the built site, with the reload script injected only into responses", async () => {
    const server = await start();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const home = await fetchText(server.url);
    expect(home.status).toBe(200);
    expect(home.type).toBe("text/html; charset=utf-8");
    expect(home.body).toContain(reloadTag);
    expect(home.body).toContain("Dev catalog");

    const first = index.packages[0];
    const page = await fetchText(`${server.url}${first?.path}/`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(first?.title);

    const bare = await fetch(`${server.url}${first?.path}?tab=all`, { redirect: "manual" });
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toBe(`/${first?.path}/?tab=all`);
    const head = await fetch(server.url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(home.body));
    expect((await fetch(server.url, { method: "POST" })).status).toBe(405);

    const script = await fetchText(`${server.url}__pkg-dev/reload.js`);
    expect(script.status).toBe(200);
    expect(script.type).toBe("text/javascript; charset=utf-8");
    expect(script.body).toContain("EventSource");

    const json = await fetchText(`${server.url}c/index.json`);
    expect(json.type).toBe("application/json; charset=utf-8");
    expect(Object.keys(JSON.parse(json.body).packages)).toHaveLength(3);

    const missing = await fetchText(`${server.url}no/such/page`);
    expect(missing.status).toBe(404);
    expect(missing.body).toContain(reloadTag);
    for (const outside of [
      "../catalog.config.json",
      "%2e%2e/catalog.config.json",
      "..%2fcatalog.config.json",
      "%2e%2e%2f%2e%2e%2fetc/passwd",
    ]) {
      expect(await rawStatus(server.url, `/${outside}`), outside).toBe(404);
    }

    // the private build directory holds the site as built: no reload script in it
    const [privateDir] = await readdir(tmp);
    expect(privateDir).toMatch(/^pkg-catalog-dev-/);
    // (the second of its two build directories may still be in the making)
    const builds = await readdir(join(tmp, privateDir as string));
    for (const name of builds) expect(name).toMatch(/^site-[ab](\.tmp-\d+-[0-9a-f]{12})?$/);
    const built = await readFile(join(tmp, privateDir as string, "site-a", "index.html"), "utf8");
    expect(built).not.toContain("__pkg-dev");
  });

  it("rebuilds on a path source change and tells the page to reload", async () => {
    const server = await start();
    events = await openEvents(`${server.url}__pkg-dev/events`);
    const added = (await writeSyntheticIndex(join(work.path, "index"), { packages: 4, readmeBytes: 500 }))
      .packages[3];
    expect((await fetchText(`${server.url}${added?.path}/`)).status).toBe(404);
    await reloadUntil(`${server.url}${added?.path}/`, (page) => page.status === 200);
    expect(server.stderr()).toMatch(
      /^rebuilt in \d+ ms: read \d+ of 4 packages, rendered \d+ package pages?, wrote \d+ files?/m,
    );
  });

  it("reads and renders only the changed package when one package file changes", async () => {
    const server = await start();
    events = await openEvents(`${server.url}__pkg-dev/events`);
    const changed = index.packages[1];
    const rootFile = join(work.path, "index", "p", `${changed?.path}.json`);
    const root = JSON.parse(await readFile(rootFile, "utf8")) as { desc: Record<string, unknown> };
    root.desc.description = "Changed while serving.";
    await publishRoot(join(work.path, "index"), changed?.path ?? "", JSON.stringify(root));
    await reloadUntil(`${server.url}${changed?.path}/`, (page) =>
      page.body.includes("Changed while serving."),
    );
    const rebuilds = server.stderr().match(/^rebuilt in .*$/gm) ?? [];
    expect(
      rebuilds.some((line) => / read 1 of 3 packages, rendered 1 package page, /.test(line)),
      server.stderr(),
    ).toBe(true);
    // no rebuild read or rendered more than the changed package
    for (const line of rebuilds)
      expect(line).toMatch(/ read [01] of 3 packages, rendered [01] package pages?, /);
  });

  it("follows a path source directory replaced by another", async () => {
    const server = await start();
    events = await openEvents(`${server.url}__pkg-dev/events`);
    const next = join(work.path, "index-next");
    const fourth = (await writeSyntheticIndex(next, { packages: 4, readmeBytes: 500 })).packages[3];
    await rm(join(work.path, "index"), { recursive: true });
    await rename(next, join(work.path, "index"));
    await reloadUntil(`${server.url}${fourth?.path}/`, (page) => page.status === 200);

    // the new directory is watched too
    const fifth = (await writeSyntheticIndex(join(work.path, "index"), { packages: 5, readmeBytes: 500 }))
      .packages[4];
    await reloadUntil(`${server.url}${fifth?.path}/`, (page) => page.status === 200);
  });

  it("rebuilds on a css change", async () => {
    const server = await start();
    events = await openEvents(`${server.url}__pkg-dev/events`);
    const css = `${server.url}assets/custom.css`;
    expect((await fetchText(css)).body).toContain("teal");
    await writeFile(join(work.path, "site.css"), "body { color: crimson; }\n");
    await reloadUntil(css, (page) => page.body.includes("crimson"));
  });

  it("rebuilds on a change in the public directory, the docs and the logo", async () => {
    await mkdir(join(work.path, "public"));
    await mkdir(join(work.path, "docs"));
    await writeFile(join(work.path, "public", "notes.txt"), "first\n");
    await writeFile(join(work.path, "docs", "index.md"), "# Guide\n\nFirst words.\n");
    await writeFile(
      join(work.path, "logo.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg"><title>one</title></svg>',
    );
    await writeConfig({
      ...baseConfig,
      publicDir: "public",
      docs: "docs",
      brand: { title: "T", logo: "logo.svg" },
    });
    const server = await start();
    events = await openEvents(`${server.url}__pkg-dev/events`);

    await writeFile(join(work.path, "public", "notes.txt"), "second\n");
    await reloadUntil(`${server.url}notes.txt`, (page) => page.body === "second\n");
    await writeFile(join(work.path, "docs", "index.md"), "# Guide\n\nSecond words.\n");
    await reloadUntil(`${server.url}docs/`, (page) => page.body.includes("Second words."));
    const home = await fetchText(server.url);
    const logo = /<img[^>]+src="([^"]+\.svg)"/.exec(home.body)?.[1];
    expect(logo).toBeDefined();
    await writeFile(
      join(work.path, "logo.svg"),
      '<svg xmlns="http://www.w3.org/2000/svg"><title>two</title></svg>',
    );
    await reloadUntil(new URL(logo ?? "", server.url).href, (page) => page.body.includes("two"));
  });

  it("watches what the config names after it changes", async () => {
    const server = await start();
    events = await openEvents(`${server.url}__pkg-dev/events`);
    await writeFile(join(work.path, "extra.css"), "main { margin: 0; }\n");
    await writeConfig({ ...baseConfig, css: "extra.css" });
    const css = `${server.url}assets/custom.css`;
    await reloadUntil(css, (page) => page.body.includes("margin: 0"));
    await writeFile(join(work.path, "extra.css"), "main { margin: 1px; }\n");
    await reloadUntil(css, (page) => page.body.includes("margin: 1px"));
  });

  it("keeps serving the last good site when a rebuild fails, and reports the error", async () => {
    const server = await start();
    const before = await fetchText(server.url);
    events = await openEvents(`${server.url}__pkg-dev/events`);
    await writeFile(join(work.path, "catalog.config.json"), '{ "sources": [');
    const failure = await events.next();
    expect(failure.name).toBe("error");
    expect(failure.data).toMatch(/^INVALID_JSON: /);
    expect(server.stderr()).toMatch(/^rebuild failed, still serving the last good build: INVALID_JSON: .*$/m);
    expect(await fetchText(server.url)).toEqual(before);

    // a page opened now learns of the pending error at once
    const late = await openEvents(`${server.url}__pkg-dev/events`);
    expect((await late.next()).name).toBe("error");
    late.close();

    await writeConfig(baseConfig);
    expect((await events.next()).name).toBe("reload");
  });

  it("falls back to a free port when the default one is busy", async () => {
    const blocker = createServer();
    blocker.listen(4321, "127.0.0.1");
    // another process may hold 4321 already: either way the default port is taken
    await Promise.race([once(blocker, "listening"), once(blocker, "error")]);
    try {
      const server = await start();
      expect(server.url).not.toBe("http://127.0.0.1:4321/");
      expect((await fetchText(server.url)).status).toBe(200);
    } finally {
      blocker.close();
    }
  });

  it("exits 69 naming an explicit --port that is busy", async () => {
    const blocker = createServer();
    blocker.listen(0, "127.0.0.1");
    await once(blocker, "listening");
    const address = blocker.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    try {
      const result = await runCli(catalogBin, ["dev", "--port", String(port)], {
        cwd: work.path,
        env: { TMPDIR: tmp },
      });
      expect(result.code).toBe(69);
      expect(result.stderr).toBe(
        `pkg-catalog: port ${port} on 127.0.0.1 is already in use; pick another --port\n`,
      );
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it("exits 65 for a bad config, before serving", async () => {
    await writeConfig({ ...baseConfig, brand: {} });
    const result = await runCli(catalogBin, ["dev"], { cwd: work.path, env: { TMPDIR: tmp } });
    expect(result.code).toBe(65);
    expect(result.stderr).toMatch(/^pkg-catalog: INVALID_TYPE: .*brand\.title/);
  });

  it("stops cleanly on SIGTERM and SIGINT, removing its private directory", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const server = await start();
      events = await openEvents(`${server.url}__pkg-dev/events`);
      expect(await readdir(tmp)).toHaveLength(1);
      expect(await server.stop(signal)).toEqual({ code: 0, signal: null });
      dev = undefined;
      expect(await readdir(tmp)).toEqual([]);
      await expect(events.next()).rejects.toThrow(/closed/);
      events = undefined;
    }
  });
});
