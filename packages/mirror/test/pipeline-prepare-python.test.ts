// `pipeline prepare` of a pylock source: real wheels on a loopback Simple API index, the committed
// lock's wheels downloaded, checked against the lock's hashes, repacked one layer per wheel and
// composed per wheels key, the interpreter's tag resolved in the real registry; the layers, put
// together, run the app's console script with the machine's python3.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry } from "@pkg/oci";
import { parseMetadata } from "@pkg/package";
import { extractBundle } from "@pkg/package/bundle";
import { type RunningRegistry, runCli, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PreparedVersion } from "../src/pipeline/documents/prepared-version.js";
import { publishIndexes } from "./support/publish-indexes.js";
import { uvBinary } from "./support/python-tools.js";
import { type SimpleIndex, startSimpleIndex } from "./support/simple-index.js";
import { pythonSpec } from "./support/spec-case.js";
import { mirrorBin } from "./support/sync-run.js";
import { type BuiltWheel, buildWheel, lockPackageEntry } from "./support/wheels.js";

let work: TempDir;
let registry: RunningRegistry;
let index: SimpleIndex;
let interpreterDigest: string;
const wheels: Record<string, BuiltWheel> = {};

beforeAll(async () => {
  work = await tempDir("pkg-mirror-prepare-python-");
  await mkdir(join(work.path, ".git"));
  registry = await startRegistry();
  const interpreter = openRegistry({ host: registry.host, repository: "py/cpython" });
  await publishIndexes(interpreter, [{ tags: ["3.11.7"], platforms: ["linux/amd64", "linux/arm64"] }]);
  interpreterDigest = (await interpreter.fetchManifest("3.11.7"))?.descriptor.digest as string;
  await publishIndexes(openRegistry({ host: registry.host, repository: "py/cpython-amd64" }), [
    { tags: ["3.11.7"], platforms: ["linux/amd64"] },
  ]);
  const dir = join(work.path, "wheels");
  await mkdir(dir);
  wheels.app = await buildWheel(dir, {
    name: "Hello_App",
    version: "1.0",
    requires: ["helper-lib>=1"],
    files: {
      "hello_app/__init__.py":
        "import sys\nimport helper_lib\n\ndef main():\n    print('hello from', helper_lib.NAME, sys.argv[0], sys.argv[1:])\n    return 3\n",
    },
    consoleScripts: { hello: "hello_app:main" },
  });
  wheels.helper = await buildWheel(dir, {
    name: "helper-lib",
    version: "2.0",
    files: { "helper_lib/__init__.py": "NAME = 'helper'\n" },
    consoleScripts: { "helper-tool": "helper_lib:main" },
  });
  wheels.clash = await buildWheel(dir, {
    name: "clash",
    version: "1.0",
    files: { "hello_app/__init__.py": "# not the app\n" },
  });
  index = await startSimpleIndex({
    flavour: "json",
    projects: {
      "hello-app": [{ wheel: wheels.app }],
      "helper-lib": [{ wheel: wheels.helper }],
      clash: [{ wheel: wheels.clash }],
    },
  });
}, 120_000);

afterAll(async () => {
  await index?.stop();
  await registry?.stop();
  await work?.remove();
});

const lockEntry = (name: string, version: string, wheel: BuiltWheel, sha256 = wheel.sha256) =>
  lockPackageEntry(index.url, name, version, wheel, sha256);

/** A pylock spec of hello-app in its own directory, planned (`-o plan.json`) and prepared. */
async function planAndPrepare(name: string, lockPackages: string, interpreterRepository = "py/cpython") {
  const dir = join(work.path, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "pylock.toml"), `lock-version = "1.0"\ncreated-by = "tests"\n${lockPackages}`);
  const yaml = pythonSpec({
    name: "hello-app",
    target: { registry: registry.host, repository: `py/${name}` },
    source: { type: "pylock", path: `${name}/pylock.toml` },
    python: {
      version: "3.11.7",
      abi: "cp311",
      interpreter_package: `${registry.host}/${interpreterRepository}:3.11.7`,
    },
    wheels: { "linux/amd64": null, "linux/arm64": null },
    platforms: { "linux/amd64": { runner: "ubuntu-latest" }, "linux/arm64": { runner: "ubuntu-24.04-arm" } },
  });
  await writeFile(join(dir, "mirror.yml"), yaml);
  const env = { HOME: dir, PKG_MIRROR_UV: join(work.path, "no-such-uv") };
  const planned = await runCli(mirrorBin, ["package", "pipeline", "plan", "-o", "out/plan.json"], {
    cwd: dir,
    env,
  });
  expect(planned.code, planned.stderr).toBe(0);
  const plan = JSON.parse(await readFile(join(dir, "out/plan.json"), "utf8"));
  const tag: string = plan.versions[0].version;
  const prepared = await runCli(
    mirrorBin,
    ["package", "pipeline", "prepare", "--plan", "out/plan.json", "--version", tag, "--format", "json"],
    { cwd: dir, env },
  );
  const manifest = JSON.parse(
    await readFile(join(dir, "bundles", `prepared-${tag}.json`), "utf8"),
  ) as PreparedVersion;
  return { dir, tag, prepared, manifest };
}

const sha256 = async (path: string) =>
  `sha256:${createHash("sha256")
    .update(await readFile(path))
    .digest("hex")}`;

describe("pipeline prepare of a pylock source", () => {
  it("writes one layer per wheel and the composed metadata per wheels key; the layers run the console script", async () => {
    const lock =
      lockEntry("hello-app", "1.0", wheels.app as BuiltWheel) +
      lockEntry("helper-lib", "2.0", wheels.helper as BuiltWheel);
    const { dir, tag, prepared, manifest } = await planAndPrepare("ok", lock);
    expect(prepared.code, prepared.stderr).toBe(0);
    expect(JSON.parse(prepared.stdout)).toEqual(manifest);
    expect(manifest.failed).toEqual([]);
    expect(manifest.bundles.map((b) => b.platform)).toEqual(["linux/amd64", "linux/arm64"]);
    const bundles = join(dir, "bundles");
    const [amd64, arm64] = manifest.bundles as [
      PreparedVersion["bundles"][number],
      PreparedVersion["bundles"][number],
    ];
    expect(amd64.layers?.map((l) => l.wheel)).toEqual([
      {
        name: wheels.app?.filename,
        package: "hello-app",
        url: `${index.url}/files/${wheels.app?.filename}`,
        sha256: wheels.app?.sha256,
      },
      {
        name: wheels.helper?.filename,
        package: "helper-lib",
        url: `${index.url}/files/${wheels.helper?.filename}`,
        sha256: wheels.helper?.sha256,
      },
    ]);
    expect(amd64.layers?.map((l) => l.file)).toEqual([
      `bundle-${tag}-linux-amd64-layer1.tar.zst`,
      `bundle-${tag}-linux-amd64-layer2.tar.zst`,
    ]);
    expect([amd64.bundle, amd64.digest, amd64.size]).toEqual([
      amd64.layers?.[0]?.file,
      amd64.layers?.[0]?.digest,
      amd64.layers?.[0]?.size,
    ]);
    // pure wheels: both keys publish the same layers
    expect(arm64.layers?.map((l) => l.digest)).toEqual(amd64.layers?.map((l) => l.digest));
    for (const layer of amd64.layers ?? [])
      expect(await sha256(join(bundles, layer.file))).toBe(layer.digest);

    const metadata = parseMetadata(await readFile(join(bundles, amd64.metadata), "utf8"), amd64.metadata);
    expect(metadata.dependencies).toEqual([
      {
        identifier: `${registry.host}/py/cpython:3.11.7@${interpreterDigest}`,
        name: "python",
        visibility: "private",
      },
    ]);
    expect(metadata.entrypoints?.map((e) => [e.name, e.target])).toEqual([
      ["hello", "python"],
      ["python", "python"],
    ]);

    // the layers applied at one content root, the launcher run as pkg would run it, with python3 for python
    const root = join(dir, "root");
    await mkdir(root);
    for (const [i, layer] of (amd64.layers ?? []).entries()) {
      await extractBundle(join(bundles, layer.file), join(root, String(i)));
    }
    const hello = metadata.entrypoints?.[0];
    const run = spawnSync("python3", [...(hello?.args ?? []), "world"], {
      encoding: "utf8",
      env: {
        PATH: process.env.PATH,
        PYTHONPATH: [0, 1].map((i) => join(root, String(i), "lib/site-packages")).join(":"),
      },
    });
    expect(run.stdout).toBe("hello from helper hello ['world']\n");
    expect(run.status).toBe(3);

    // push gates environment packages as any: no test leg reported, nothing is pushed
    const push = await runCli(
      mirrorBin,
      [
        "package",
        "pipeline",
        "push",
        "--bundles-dir",
        "bundles",
        "--junit-dir",
        "junit",
        "--write-summary",
        "summary.json",
      ],
      { cwd: dir, env: { HOME: dir } },
    );
    expect(push.code, push.stderr).toBe(1);
    expect(push.stderr).toContain("failed (linux/amd64: missing_junit, linux/arm64: missing_junit)");
    expect(await openRegistry({ host: registry.host, repository: "py/ok" }).listTags()).toEqual([]);

    // without --plan prepare plans here (the committed lock again): the same layers, byte for byte
    const standalone = await runCli(
      mirrorBin,
      [
        "package",
        "pipeline",
        "prepare",
        "--version",
        tag,
        "--bundles-dir",
        "again",
        "--work-dir",
        "work2",
        "--format",
        "json",
      ],
      { cwd: dir, env: { HOME: dir } },
    );
    expect(standalone.code, standalone.stderr).toBe(0);
    const again = JSON.parse(standalone.stdout) as PreparedVersion;
    expect(again.bundles.map((b) => b.layers?.map((l) => l.digest))).toEqual(
      manifest.bundles.map((b) => b.layers?.map((l) => l.digest)),
    );
  });

  it("a wheel whose bytes differ from the lock's hash fails every key that needs it (exit 1, nothing placed)", async () => {
    const lock =
      lockEntry("hello-app", "1.0", wheels.app as BuiltWheel) +
      lockEntry("helper-lib", "2.0", wheels.helper as BuiltWheel, "0".repeat(64));
    const { prepared, manifest } = await planAndPrepare("tampered", lock);
    expect(prepared.code).toBe(1);
    expect(manifest.bundles).toEqual([]);
    expect(manifest.failed.map((f) => f.platform)).toEqual(["linux/amd64", "linux/arm64"]);
    expect(manifest.failed[0]?.message).toContain(
      `${wheels.helper?.filename}: sha256 ${wheels.helper?.sha256} does not match the lock's ${"0".repeat(64)}`,
    );
  });

  it("a key whose os/arch the interpreter's index lacks fails; the others are built", async () => {
    const lock =
      lockEntry("hello-app", "1.0", wheels.app as BuiltWheel) +
      lockEntry("helper-lib", "2.0", wheels.helper as BuiltWheel);
    const { prepared, manifest } = await planAndPrepare("no-arm64", lock, "py/cpython-amd64");
    expect(prepared.code).toBe(1);
    expect(manifest.bundles.map((b) => b.platform)).toEqual(["linux/amd64"]);
    expect(manifest.failed).toEqual([
      {
        platform: "linux/arm64",
        message: `python.interpreter_package ${registry.host}/py/cpython-amd64:3.11.7 has no linux/arm64 entry (it has linux/amd64)`,
      },
    ]);
  });

  it("two wheels installing the same file fail the key (65 in the manifest)", async () => {
    const lock =
      lockEntry("hello-app", "1.0", wheels.app as BuiltWheel) +
      lockEntry("clash", "1.0", wheels.clash as BuiltWheel);
    const { prepared, manifest } = await planAndPrepare("clash", lock);
    expect(prepared.code).toBe(1);
    expect(manifest.failed[0]?.message).toBe(
      `${wheels.clash?.filename}: installs lib/site-packages/hello_app/__init__.py, which ${wheels.app?.filename} installs too`,
    );
  });
});

describe("pipeline prepare of a pypi source", () => {
  it("reads the lock plan derived (its pylock relative to --plan's directory) and builds from it", async () => {
    const uv = await uvBinary();
    const dir = join(work.path, "pypi");
    await mkdir(dir, { recursive: true });
    const yaml = pythonSpec({
      name: "hello-app",
      target: { registry: registry.host, repository: "py/pypi" },
      source: { type: "pypi", package: "Hello_App", indexes: [{ url: index.base }] },
      python: {
        version: "3.11.7",
        abi: "cp311",
        interpreter_package: `${registry.host}/py/cpython@${interpreterDigest}`,
        entrypoints: "all",
      },
    });
    await writeFile(join(dir, "mirror.yml"), yaml);
    const env = { HOME: dir, UV_CACHE_DIR: join(work.path, "uv-cache"), PKG_MIRROR_UV: uv };
    const planned = await runCli(
      mirrorBin,
      ["package", "pipeline", "plan", "-o", "out/plan.json", "--locks-dir", "derived"],
      { cwd: dir, env },
    );
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(await readFile(join(dir, "out/plan.json"), "utf8"));
    const [entry] = plan.versions;
    expect(entry.pylock).toBe("../derived/pylock.hello-app-1-0.toml");
    const prepared = await runCli(
      mirrorBin,
      [
        "package",
        "pipeline",
        "prepare",
        "--plan",
        "out/plan.json",
        "--version",
        entry.version,
        "--format",
        "json",
      ],
      { cwd: dir, env: { HOME: dir } },
    );
    expect(prepared.code, prepared.stderr).toBe(0);
    const manifest = JSON.parse(prepared.stdout) as PreparedVersion;
    const [bundle] = manifest.bundles;
    expect(bundle?.layers?.map((l) => l.wheel.package)).toEqual(["hello-app", "helper-lib"]);
    const metadata = parseMetadata(
      await readFile(join(dir, "bundles", bundle?.metadata as string), "utf8"),
      "m",
    );
    // entrypoints: all admits the dependency's console script too; the pinned interpreter is kept as given
    expect(metadata.entrypoints?.map((e) => e.name)).toEqual(["hello", "helper-tool", "python"]);
    expect(metadata.dependencies?.[0]?.identifier).toBe(`${registry.host}/py/cpython@${interpreterDigest}`);
  });
});
