// `pipeline plan` of a pypi source: each planned version's lock derived with the real uv against
// loopback Simple API indexes serving wheels built here (first-index rule, extras, excludes,
// credentials through uv's environment only), and the resolver's failures and their exit codes.
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { credentialSlug } from "@pkg/net";
import { type RunningRegistry, runCli, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePylock } from "../src/python/pylock.js";
import { planSchemaValidator } from "./support/plan-schema.js";
import { uvBinary } from "./support/python-tools.js";
import { type SimpleIndex, startSimpleIndex } from "./support/simple-index.js";
import { pythonSpec } from "./support/spec-case.js";
import { mirrorBin } from "./support/sync-run.js";
import { type BuiltWheel, buildWheel } from "./support/wheels.js";

let work: TempDir;
let registry: RunningRegistry;
let uv: string;
/** Has the app (which requires helper-lib) and helper-lib 2.0; asks for Basic credentials. */
let first: SimpleIndex;
/** Serves a same-named helper-lib 9.0 and the app's extra's dependency. */
let second: SimpleIndex;
const wheels: Record<string, BuiltWheel> = {};
const SECRET = "s3cret-index-token";

beforeAll(async () => {
  work = await tempDir("pkg-mirror-plan-pypi-");
  await mkdir(join(work.path, ".git"));
  uv = await uvBinary();
  registry = await startRegistry();
  const dir = join(work.path, "wheels");
  await mkdir(dir);
  const make = async (key: string, spec: Parameters<typeof buildWheel>[1]) => {
    wheels[key] = await buildWheel(dir, spec);
  };
  await make("app-1.0", {
    name: "Hello_App",
    version: "1.0",
    requires: ["helper-lib>=1", 'fancy-lib; extra == "fancy"'],
    files: { "hello_app/__init__.py": "" },
    consoleScripts: { hello: "hello_app:main" },
  });
  await make("app-1.1", {
    name: "Hello_App",
    version: "1.1",
    requires: ["missing-lib>=1"],
    files: { "hello_app/__init__.py": "" },
  });
  await make("helper-2.0", { name: "helper-lib", version: "2.0", files: { "helper_lib/__init__.py": "" } });
  await make("helper-9.0", { name: "helper-lib", version: "9.0", files: { "evil/__init__.py": "" } });
  await make("fancy-1.0", { name: "fancy-lib", version: "1.0", files: { "fancy_lib/__init__.py": "" } });
  first = await startSimpleIndex({
    flavour: "json",
    basic: `reader:${SECRET}`,
    projects: {
      "hello-app": [{ wheel: wheels["app-1.0"] as BuiltWheel }, { wheel: wheels["app-1.1"] as BuiltWheel }],
      "helper-lib": [{ wheel: wheels["helper-2.0"] as BuiltWheel }],
    },
  });
  second = await startSimpleIndex({
    flavour: "html",
    projects: {
      "helper-lib": [{ wheel: wheels["helper-9.0"] as BuiltWheel }],
      "fancy-lib": [{ wheel: wheels["fancy-1.0"] as BuiltWheel }],
    },
  });
}, 120_000);

afterAll(async () => {
  await first?.stop();
  await second?.stop();
  await registry?.stop();
  await work?.remove();
});

const credentials = () => {
  const slug = credentialSlug(first.host);
  return { [`PKG_AUTH_${slug}_USER`]: "reader", [`PKG_AUTH_${slug}_TOKEN`]: SECRET };
};

/** A spec of hello-app on both indexes (first, then second) in its own directory; plans it there. */
async function plan(
  name: string,
  lock: Record<string, unknown>,
  options: { env?: Record<string, string>; args?: string[]; versions?: Record<string, string> } = {},
) {
  const dir = join(work.path, name);
  await mkdir(dir, { recursive: true });
  const yaml = pythonSpec({
    name: "hello-app",
    target: { registry: registry.host, repository: `py/${name}` },
    source: { type: "pypi", package: "Hello_App", indexes: [{ url: first.base }, { url: second.base }] },
    python: {
      version: "3.11.7",
      abi: "cp311",
      interpreter_package: "ocx.sh/python/cpython:3.11.7",
      lock: lock as never,
    },
    versions: (options.versions ?? { max: "1.1" }) as never,
  });
  await writeFile(join(dir, "mirror.yml"), yaml);
  const result = await runCli(
    mirrorBin,
    ["package", "pipeline", "plan", "--format", "json", ...(options.args ?? [])],
    {
      cwd: dir,
      env: { HOME: dir, UV_CACHE_DIR: join(work.path, "uv-cache"), PKG_MIRROR_UV: uv, ...options.env },
    },
  );
  return { ...result, dir };
}

describe("pipeline plan of a pypi source derives each version's lock with uv", () => {
  it("writes pylock.<package>-<version>.toml: first index wins for a same-named project, extras, provenance; the entry names it relative to -o's directory", async () => {
    const validate = await planSchemaValidator();
    const result = await plan(
      "derive",
      { extras: ["fancy"] },
      { env: credentials(), args: ["-o", "out/plan.json", "--locks-dir", "derived"] },
    );
    expect(result.code, result.stderr).toBe(0);
    const document = JSON.parse(result.stdout);
    validate(document);
    expect(document.versions).toHaveLength(1);
    const [entry] = document.versions;
    expect(entry).toMatchObject({
      source_version: "1.0",
      kind: "new",
      platforms: ["linux/amd64"],
      pylock: "../derived/pylock.hello-app-1-0.toml",
    });
    expect(entry.assets[0]).toMatchObject({
      platform: "linux/amd64",
      asset_name: wheels["app-1.0"]?.filename,
    });
    expect(JSON.parse(await readFile(join(result.dir, "out/plan.json"), "utf8"))).toEqual(document);

    const text = await readFile(join(result.dir, "derived/pylock.hello-app-1-0.toml"), "utf8");
    expect(text.split("\n").slice(0, 4)).toEqual([
      "# Derived by pkg-mirror pipeline plan from a pypi source (uv pip compile).",
      "# package: Hello_App",
      "# version: 1.0",
      "# python: 3.11.7 (universal)",
    ]);
    expect(text).toMatch(/^# resolver: uv 0\.13\.8\b/m);
    expect(text).toMatch(/^# generated_at: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
    const lock = parsePylock(text, "derived");
    expect(lock.requiresPython).toBe(">=3.11");
    const locked = Object.fromEntries(lock.packages.map((p) => [p.name, p]));
    expect(Object.keys(locked).sort()).toEqual(["fancy-lib", "hello-app", "helper-lib"]);
    // helper-lib: the first index has the project, so its 2.0 is taken and never the second's 9.0
    expect(locked["helper-lib"]?.version).toBe("2.0");
    expect(locked["helper-lib"]?.wheels[0]?.url).toBe(`${first.url}/files/${wheels["helper-2.0"]?.filename}`);
    expect(locked["helper-lib"]?.wheels[0]?.hashes.sha256).toBe(wheels["helper-2.0"]?.sha256);
    // fancy-lib: only the second index has it
    expect(locked["fancy-lib"]?.wheels[0]?.url).toContain(second.url);
    expect(text).not.toContain(SECRET);
    expect(result.stderr).not.toContain(SECRET);
  });

  it("credentials reach the resolver in UV_INDEX_<NAME>_* only, never its argv; PKG_MIRROR_UV names the binary; excludes and universal: false", async () => {
    const record = join(work.path, "record");
    const wrapper = join(work.path, "uv-wrapper");
    await writeFile(
      wrapper,
      `#!/bin/sh\nprintf '%s\\n' "$@" >> "${record}.argv"\nenv >> "${record}.env"\nexec "${uv}" "$@"\n`,
    );
    await chmod(wrapper, 0o755);
    const result = await plan(
      "wrapped",
      { exclude: ["helper-lib"], universal: false },
      {
        env: {
          ...credentials(),
          PKG_MIRROR_UV: wrapper,
          UV_EXTRA_INDEX_URL: "https://stray.example/simple/",
        },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const lock = parsePylock(
      await readFile(join(result.dir, "locks/pylock.hello-app-1-0.toml"), "utf8"),
      "wrapped",
    );
    expect(lock.packages.map((p) => p.name)).toEqual(["hello-app"]);
    expect(JSON.parse(result.stdout).versions[0].pylock).toBe("locks/pylock.hello-app-1-0.toml");
    const argv = await readFile(`${record}.argv`, "utf8");
    const env = await readFile(`${record}.env`, "utf8");
    expect(argv).not.toContain(SECRET);
    expect(argv).not.toContain("--universal");
    expect(argv).toContain(`pkg-index-0=${first.base}`);
    expect(argv).toContain("--no-emit-package\nhelper-lib\n");
    expect(env).toContain("UV_INDEX_PKG_INDEX_0_USERNAME=reader\n");
    expect(env).toContain(`UV_INDEX_PKG_INDEX_0_PASSWORD=${SECRET}\n`);
    expect(env).not.toContain("PKG_AUTH_");
    expect(env).not.toContain("UV_EXTRA_INDEX_URL");
  });

  it("an unsolvable version is exit 65 saying why, and no lock is written", async () => {
    const result = await plan("unsolvable", {}, { env: credentials(), versions: { min: "1.1" } });
    expect(result.code).toBe(65);
    expect(result.stderr).toContain("lock derivation of Hello_App 1.1 failed");
    expect(result.stderr).toContain("missing-lib");
    await expect(readFile(join(result.dir, "locks/pylock.hello-app-1-1.toml"))).rejects.toThrow();
  });

  it("a missing resolver and a timeout are exit 1", async () => {
    const missing = await plan(
      "missing",
      {},
      { env: { ...credentials(), PKG_MIRROR_UV: join(work.path, "no-such-uv") } },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot start: not found");
    const slow = join(work.path, "slow-uv");
    await writeFile(slow, '#!/bin/sh\n[ "$1" = --version ] && { echo "uv 0"; exit 0; }\nsleep 60\n');
    await chmod(slow, 0o755);
    const timedOut = await plan(
      "slow",
      { timeout_seconds: 1 },
      { env: { ...credentials(), PKG_MIRROR_UV: slow } },
    );
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toContain("timed out after 1 s (python.lock.timeout_seconds)");
  });
});

describe("pipeline plan of a pylock source", () => {
  it("plans the committed lock's one version per wheels key, with no derived lock", async () => {
    const dir = join(work.path, "committed");
    await mkdir(dir, { recursive: true });
    const wheel = wheels["app-1.0"] as BuiltWheel;
    await writeFile(
      join(dir, "pylock.toml"),
      `lock-version = "1.0"\ncreated-by = "tests"\n[[packages]]\nname = "hello-app"\nversion = "1.0"\n[[packages.wheels]]\nurl = "${first.url}/files/${wheel.filename}"\nhashes = { sha256 = "${wheel.sha256}" }\n`,
    );
    const yaml = pythonSpec({
      name: "hello-app",
      target: { registry: registry.host, repository: "py/committed" },
      source: { type: "pylock", path: "committed/pylock.toml" },
    });
    await writeFile(join(dir, "mirror.yml"), yaml);
    const result = await runCli(mirrorBin, ["package", "pipeline", "plan", "--format", "json"], {
      cwd: dir,
      env: { HOME: dir, PKG_MIRROR_UV: join(work.path, "no-such-uv") },
    });
    expect(result.code, result.stderr).toBe(0);
    const [entry, ...rest] = JSON.parse(result.stdout).versions;
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ source_version: "1.0", platforms: ["linux/amd64"] });
    expect(entry.pylock).toBeUndefined();
  });
});
