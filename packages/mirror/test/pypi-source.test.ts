// Discovery of `pypi` sources against loopback Simple Repository API indexes serving real wheels
// (JSON by content negotiation, HTML only), and of `pylock` sources from a committed lock.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, silentLogger } from "@pkg/common";
import { createHttpClient } from "@pkg/net";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { listUpstream } from "../src/plan/upstream.js";
import type { SourceDeps } from "../src/sources/types.js";
import type { PypiSource } from "../src/spec/source-python.js";
import { type SimpleIndex, type SimpleIndexOptions, startSimpleIndex } from "./support/simple-index.js";
import { type BuiltWheel, buildWheel } from "./support/wheels.js";

let dir: TempDir;
const wheels: Record<string, BuiltWheel> = {};
const cleanups: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  dir = await tempDir("pypi-source-");
  const make = async (key: string, spec: Parameters<typeof buildWheel>[1]) => {
    wheels[key] = await buildWheel(dir.path, spec);
  };
  const app = { name: "Hello_App", consoleScripts: { hello: "hello_app.cli:main" } };
  await make("1.0", {
    ...app,
    version: "1.0",
    files: { "hello_app/__init__.py": "", "hello_app/cli.py": "def main():\n    print('hello 1.0')\n" },
  });
  await make("1.1", { ...app, version: "1.1", files: { "hello_app/__init__.py": "" } });
  await make("1.1-cp311", {
    ...app,
    version: "1.1",
    tag: "cp311-cp311-manylinux_2_17_x86_64",
    files: { "hello_app/_speed.so": "ELF" },
  });
  await make("1.2-yanked", { ...app, version: "1.2", files: { "hello_app/__init__.py": "" } });
  await make("2.0rc1", {
    ...app,
    version: "2.0rc1",
    tag: "cp39-abi3-musllinux_1_2_aarch64",
    files: { "hello_app/__init__.py": "" },
  });
  await make("other-9.0", { name: "hello-app", version: "9.0", files: { "evil/__init__.py": "" } });
});
afterAll(async () => {
  await dir.remove();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function helloFiles() {
  return [
    { wheel: wheels["1.0"] as BuiltWheel },
    { wheel: wheels["1.1"] as BuiltWheel },
    { wheel: wheels["1.1-cp311"] as BuiltWheel },
    { wheel: wheels["1.2-yanked"] as BuiltWheel, yanked: "broken entry point" },
    { wheel: wheels["2.0rc1"] as BuiltWheel },
  ];
}

async function index(options: SimpleIndexOptions): Promise<SimpleIndex> {
  const started = await startSimpleIndex(options);
  cleanups.push(() => started.stop());
  return started;
}

function deps(env: NodeJS.ProcessEnv = {}): SourceDeps & { rateLimitMs: number; repoRoot: string } {
  const runEnv = { HOME: dir.path, PATH: process.env.PATH, ...env };
  const http = createHttpClient({ env: runEnv });
  cleanups.push(() => http.close());
  return { http, specDir: dir.path, repoRoot: dir.path, env: runEnv, log: silentLogger, rateLimitMs: 0 };
}

const pypi = (...urls: string[]): PypiSource => ({
  type: "pypi",
  package: "hello.app",
  indexes: urls.map((url) => ({ url })),
});

describe("pypi discovery", () => {
  for (const flavour of ["json", "html"] as const) {
    it(`lists the non-yanked versions of a ${flavour} index with their files and digests`, async () => {
      const idx = await index({ flavour, projects: { "Hello-App": helloFiles() } });
      const versions = await listUpstream(pypi(idx.base), deps());
      expect(versions.map((v) => [v.version, v.prerelease, v.assets.map((a) => a.name)])).toEqual([
        ["1.0", false, [wheels["1.0"]?.filename]],
        ["1.1", false, [wheels["1.1"]?.filename, wheels["1.1-cp311"]?.filename]],
        ["2.0rc1", true, [wheels["2.0rc1"]?.filename]],
      ]);
      const asset = versions[0]?.assets[0];
      expect(asset).toEqual({
        name: wheels["1.0"]?.filename,
        url: `${idx.url}/files/${wheels["1.0"]?.filename}`,
        digest: `sha256:${wheels["1.0"]?.sha256}`,
      });
      const accept = idx.requests.find((r) => r.url.startsWith("/simple/"))?.headers.accept;
      expect(accept).toMatch(/^application\/vnd\.pypi\.simple\.v1\+json/);
      expect(idx.requests.map((r) => r.url)).toEqual(["/simple/hello-app/"]);
    });
  }

  it("takes the first index that has the project and never merges a later one's", async () => {
    const first = await index({ flavour: "html", projects: { "hello-app": helloFiles() } });
    const second = await index({
      flavour: "json",
      projects: { "hello-app": [{ wheel: wheels["other-9.0"] as BuiltWheel }] },
    });
    const versions = await listUpstream(pypi(first.base, second.base), deps());
    expect(versions.map((v) => v.version)).toEqual(["1.0", "1.1", "2.0rc1"]);
    expect(second.requests).toHaveLength(0);
  });

  it("moves on after a 404; 404 from every index is exit 65", async () => {
    const empty = await index({ flavour: "json", projects: {} });
    const other = await index({
      flavour: "json",
      projects: { "hello-app": [{ wheel: wheels["other-9.0"] as BuiltWheel }] },
    });
    const versions = await listUpstream(pypi(empty.base, other.base), deps());
    expect(versions.map((v) => v.version)).toEqual(["9.0"]);
    await expect(listUpstream(pypi(empty.base, `${empty.url}/elsewhere/`), deps())).rejects.toMatchObject({
      exitCode: ExitCode.Data,
      message: expect.stringContaining("no index has the project hello-app"),
    });
  });

  it("any other failure is exit 69 and stops at that index: 5xx, 401, a malformed page, a refused connection", async () => {
    const good = await index({ flavour: "json", projects: { "hello-app": helloFiles() } });
    const failing = await index({ flavour: "json", projects: {}, status: { "hello-app": 503 } });
    await expect(listUpstream(pypi(failing.base, good.base), deps())).rejects.toMatchObject({
      exitCode: ExitCode.Unavailable,
      message: expect.stringContaining("answered HTTP 503"),
    });
    expect(good.requests).toHaveLength(0);
    const locked = await index({ flavour: "json", projects: { "hello-app": helloFiles() }, basic: "u:p" });
    await expect(listUpstream(pypi(locked.base), deps())).rejects.toMatchObject({
      exitCode: ExitCode.Unavailable,
    });
    const malformed = await index({ flavour: "json", projects: {}, rawPage: { "hello-app": "{not json" } });
    await expect(listUpstream(pypi(malformed.base), deps())).rejects.toMatchObject({
      exitCode: ExitCode.Unavailable,
      message: expect.stringContaining("does not parse"),
    });
    const gone = await index({ flavour: "json", projects: {} });
    const goneBase = gone.base;
    await gone.stop();
    cleanups.pop();
    await expect(listUpstream(pypi(goneBase), deps())).rejects.toMatchObject({
      exitCode: ExitCode.Unavailable,
    });
  });

  it("sends the host's credential from the ladder (PKG_AUTH_<host>_*)", async () => {
    const locked = await index({
      flavour: "html",
      projects: { "hello-app": helloFiles() },
      basic: "reader:s3cret",
    });
    const slug = locked.host.replace(/[^A-Za-z0-9]/g, "_").toUpperCase();
    const versions = await listUpstream(
      pypi(locked.base),
      deps({ [`PKG_AUTH_${slug}_USER`]: "reader", [`PKG_AUTH_${slug}_TOKEN`]: "s3cret" }),
    );
    expect(versions).toHaveLength(3);
  });
});

describe("pylock discovery", () => {
  const lock = (name: string, version = "1.1") =>
    [
      'lock-version = "1.0"',
      'created-by = "tests"',
      'requires-python = ">=3.9"',
      "[[packages]]",
      `name = "${name}"`,
      `version = "${version}"`,
      "[[packages.wheels]]",
      `url = "https://files.example/${wheels["1.1"]?.filename}"`,
      `hashes = { sha256 = "${wheels["1.1"]?.sha256}" }`,
      "[[packages]]",
      'name = "click"',
      'version = "8.1.7"',
      "[[packages.wheels]]",
      'url = "https://files.example/click-8.1.7-py3-none-any.whl"',
      'hashes = { sha256 = "00" }',
      "",
    ].join("\n");

  it("lists exactly the app's locked version (found by PEP 503 name) with its wheels", async () => {
    await writeFile(join(dir.path, "pylock.toml"), lock("hello-app"));
    const versions = await listUpstream(
      { type: "pylock", path: "pylock.toml", package: "Hello_App" },
      deps(),
    );
    expect(versions).toEqual([
      {
        version: "1.1",
        prerelease: false,
        assets: [
          {
            name: wheels["1.1"]?.filename,
            url: `https://files.example/${wheels["1.1"]?.filename}`,
            digest: `sha256:${wheels["1.1"]?.sha256}`,
          },
        ],
      },
    ]);
  });

  it("an app the lock does not hold, or a lock breaking PEP 751, is exit 65", async () => {
    await writeFile(join(dir.path, "pylock.toml"), lock("hello-app"));
    await expect(
      listUpstream({ type: "pylock", path: "pylock.toml", package: "other" }, deps()),
    ).rejects.toMatchObject({
      exitCode: ExitCode.Data,
      message: expect.stringContaining("has no package other"),
    });
    await writeFile(join(dir.path, "bad.toml"), lock("Hello_App"));
    await expect(
      listUpstream({ type: "pylock", path: "bad.toml", package: "hello-app" }, deps()),
    ).rejects.toMatchObject({
      exitCode: ExitCode.Data,
      message: expect.stringContaining("not a normalised name"),
    });
  });

  it("an app locked at a version with no tag form (an epoch) is exit 65 saying so", async () => {
    await writeFile(join(dir.path, "epoch.toml"), lock("hello-app", "1!1.1"));
    await expect(
      listUpstream({ type: "pylock", path: "epoch.toml", package: "hello-app" }, deps()),
    ).rejects.toMatchObject({
      exitCode: ExitCode.Data,
      message:
        "lock epoch.toml: hello-app: version 1!1.1 cannot be mirrored (an epoch or a local part has no tag form)",
    });
  });
});
