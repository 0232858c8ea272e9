import { readdirSync } from "node:fs";
import { chmod, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { silentLogger } from "@pkg/common";
import { createHttpClient, type PooledHttpClient } from "@pkg/net";
import { openRegistry } from "@pkg/oci";
import { type RunningRegistry, startRegistry, type TempDir, type TestServer, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planPipeline } from "../src/pipeline/plan/plan-pipeline.js";
import { loadMirrorSpec } from "../src/spec/loader.js";
import { forgeRelease, startForge } from "./support/forge.js";
import { planSchemaValidator } from "./support/plan-schema.js";
import { publishIndexes } from "./support/publish-indexes.js";
import { uvBinary } from "./support/python-tools.js";
import { type SimpleIndex, startSimpleIndex } from "./support/simple-index.js";
import { buildWheel } from "./support/wheels.js";

const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/mirror-specs/", import.meta.url));
const files = readdirSync(fixtures).filter((name) => name.endsWith(".yml"));
const DIGEST = `sha256:${"c".repeat(64)}`;

/** Per forge repository the fixtures list, its releases (newest first) and their assets. */
const UPSTREAM: Record<string, Array<{ tag: string; assets: string[] }>> = {
  "mvdan/sh": [
    { tag: "v3.9.0", assets: ["shfmt_v3.9.0_linux_amd64", "shfmt_v3.9.0_darwin_arm64"] },
    { tag: "v3.8.0", assets: ["shfmt_v3.8.0_linux_amd64"] },
  ],
  "Kitware/CMake": ["3.31.0", "3.30.0"].map((v) => ({
    tag: `v${v}`,
    assets: [
      `cmake-${v}-linux-x86_64.tar.gz`,
      `cmake-${v}-linux-aarch64.tar.gz`,
      `cmake-${v}-macos-universal.tar.gz`,
      `cmake-${v}-windows-x86_64.zip`,
      `cmake-${v}-windows-arm64.zip`,
    ],
  })),
  // two assets match linux/amd64 in 1.26.0: that pair is refused, not guessed
  "bazelbuild/bazelisk": [
    { tag: "v1.26.0", assets: ["bazelisk-linux-amd64", "old-bazelisk-linux-amd64"] },
    { tag: "v1.25.0", assets: ["bazelisk-linux-amd64"] },
  ],
};

/** What the url_index fixture's generator (`uv run generate.py`) prints. */
const NODE_INDEX = {
  versions: Object.fromEntries(
    ["22.1.0", "22.0.0"].map((v) => [
      v,
      {
        assets: {
          [`node-v${v}-linux-x64.tar.xz`]: {
            url: `https://dl.example/v${v}/node-linux-x64.tar.xz`,
            sha256: DIGEST,
          },
          [`node-v${v}-linux-arm64.tar.xz`]: `https://dl.example/v${v}/node-linux-arm64.tar.xz`,
          [`node-v${v}-darwin-arm64.tar.gz`]: `https://dl.example/v${v}/node-darwin-arm64.tar.gz`,
          [`node-v${v}-darwin-x64.tar.gz`]: `https://dl.example/v${v}/node-darwin-x64.tar.gz`,
          [`node-v${v}-win-x64.zip`]: `https://dl.example/v${v}/node-win-x64.zip`,
        },
      },
    ]),
  ),
};

let work: TempDir;
let registry: RunningRegistry;
let http: PooledHttpClient;
let validate: (document: unknown) => void;
const forges = new Map<string, TestServer>();
let bin: string;
/** pypi.yml's index, on loopback instead of the public one: pycowsay and its `cli` extra's dependency. */
let pypiIndex: SimpleIndex;
let uv: string;

beforeAll(async () => {
  work = await tempDir("pkg-mirror-plan-fixtures-");
  await mkdir(join(work.path, ".git"));
  registry = await startRegistry();
  http = createHttpClient({ env: {}, userAgent: "pkg-mirror-test" });
  validate = await planSchemaValidator();
  for (const [repo, releases] of Object.entries(UPSTREAM)) {
    const listed = releases.map(({ tag, assets }) =>
      forgeRelease(
        tag,
        assets.map((name, i) => ({
          name,
          url: `https://downloads.example/${tag}/${name}`,
          ...(i === 0 ? { digest: DIGEST } : {}),
        })),
      ),
    );
    forges.set(repo, await startForge({ repo, releases: listed }));
  }
  // `uv` on the generator's PATH: a real process printing the url index
  bin = join(work.path, "bin");
  await mkdir(bin);
  await writeFile(join(bin, "index.json"), JSON.stringify(NODE_INDEX));
  await writeFile(join(bin, "uv"), `#!/bin/sh\ncat "${join(bin, "index.json")}"\n`);
  await chmod(join(bin, "uv"), 0o755);
  uv = await uvBinary();
  const wheelDir = join(work.path, "wheels");
  await mkdir(wheelDir);
  const pycowsay = (version: string) =>
    buildWheel(wheelDir, {
      name: "pycowsay",
      version,
      requires: ['colorama; extra == "cli"'],
      files: { "pycowsay/__init__.py": "" },
      consoleScripts: { pycowsay: "pycowsay.main:main" },
    });
  pypiIndex = await startSimpleIndex({
    flavour: "json",
    projects: {
      pycowsay: [{ wheel: await pycowsay("0.0.0.1") }, { wheel: await pycowsay("0.0.0.2") }],
      colorama: [{ wheel: await buildWheel(wheelDir, { name: "colorama", version: "0.4.6" }) }],
    },
  });
  // an earlier run published cmake 3.30.0 for linux/amd64 only: it is backfilled
  await publishIndexes(openRegistry({ host: registry.host, repository: "cmake" }), [
    { tags: ["3.30.0_20250101120000"], platforms: ["linux/amd64"] },
  ]);
}, 60_000);

afterAll(async () => {
  for (const forge of forges.values()) await forge.stop();
  await pypiIndex?.stop();
  await http?.close();
  await registry?.stop();
  await work?.remove();
});

/** The fixture copied into a directory of its own (with the generator's working directory). */
async function placed(name: string): Promise<string> {
  const dir = join(work.path, name.replace(/\.yml$/, ""));
  await mkdir(join(dir, "scripts"), { recursive: true });
  await copyFile(`${fixtures}${name}`, join(dir, name));
  return join(dir, name);
}

const plans = new Map<string, ReturnType<typeof planOnce>>();

/** Plans a fixture (once) in process against the loopback forge of its repository and the local registry. */
function planFixture(name: string): ReturnType<typeof planOnce> {
  let plan = plans.get(name);
  if (plan === undefined) {
    plan = planOnce(name);
    plans.set(name, plan);
  }
  return plan;
}

async function planOnce(name: string) {
  const loaded = await loadMirrorSpec(await placed(name), { repoRoot: work.path });
  const { source, target } = loaded.spec;
  // the fixture names no index (the public one): its project is served on loopback
  if (source?.type === "pypi") source.indexes = [{ url: pypiIndex.base }];
  const repo = source?.type === "forgeone_release" ? `${source.owner}/${source.repo}` : undefined;
  const env = {
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    HOME: work.path,
    PKG_MIRROR_UV: uv,
    ...(repo === undefined ? {} : { PKG_FORGEONE_API_URL: forges.get(repo)?.url }),
  };
  return planPipeline(loaded, {
    env,
    log: silentLogger,
    http,
    target: openRegistry({ host: registry.host, repository: target?.repository ?? "" }, { env: {} }),
    python: { locksDir: join(work.path, "locks"), planDir: work.path },
  });
}

describe("plan.json of every published-style fixture spec", () => {
  it("finds the fixtures", () => {
    expect(files).toEqual(expect.arrayContaining(["full-platforms.yml", "container-libc.yml", "pypi.yml"]));
  });

  it.each(files)("%s validates against pkg-mirror schema plan", async (name) => {
    const { document } = await planFixture(name);
    validate(document);
    expect(document.versions.length).toBeGreaterThan(0);
    expect(Object.keys(document.legs).length).toBeGreaterThan(0);
  });

  it("full-platforms.yml: 3.30.0 is backfilled around its published platform, 3.31.0 is new", async () => {
    const { document } = await planFixture("full-platforms.yml");
    expect(document.versions.map((v) => [v.source_version, v.kind, v.platforms.length, v.carried])).toEqual([
      ["3.30.0", "backfill", 5, ["linux/amd64"]],
      ["3.31.0", "new", 6, undefined],
    ]);
    expect(document.versions[0]?.own_tags).toEqual(["3.30.0_20250101120000"]);
  });

  it("ghcr-announce.yml: an ambiguous pair is refused in its entry", async () => {
    const { document } = await planFixture("ghcr-announce.yml");
    expect(document.versions.map((v) => [v.version, v.kind, v.platforms, v.refused?.length ?? 0])).toEqual([
      ["1.25.0", "new", ["linux/amd64"], 0],
      ["1.26.0", "new", [], 1],
    ]);
    expect(document.versions[1]?.refused?.[0]?.message).toContain(
      "bazelisk-linux-amd64, old-bazelisk-linux-amd64",
    );
  });

  it("pypi.yml: each version's lock is derived with uv (extras included) and named relative to the plan's directory", async () => {
    const { document } = await planFixture("pypi.yml");
    expect(document.versions.map((v) => [v.source_version, v.platforms, v.pylock])).toEqual([
      ["0.0.0.1", ["linux/amd64", "linux/arm64"], "locks/pylock.pycowsay-0-0-0-1.toml"],
      ["0.0.0.2", ["linux/amd64", "linux/arm64"], "locks/pylock.pycowsay-0-0-0-2.toml"],
    ]);
    const lock = await readFile(join(work.path, "locks/pylock.pycowsay-0-0-0-2.toml"), "utf8");
    expect(lock).toContain('name = "colorama"');
    expect(lock).toContain('requires-python = ">=3.13"');
  });
});
