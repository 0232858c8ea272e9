// buildEnvPlatforms with real wheels from a loopback index and the run's real downloader: how many
// wheels are unpacked at once is bounded by the repack slot (a lock of a hundred wheels must not
// put a hundred unpacked trees on disk), and a wheel two keys share is downloaded and repacked once.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { silentLogger } from "@pkg/common";
import { createHttpClient, type PooledHttpClient } from "@pkg/net";
import { type CreateBundleOptions, createBundle } from "@pkg/package/bundle";
import { type TempDir, tempDir } from "@pkg/testkit";
import pLimit from "p-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDownloader } from "../src/build/fetch/downloader.js";
import { buildEnvPlatforms } from "../src/build/wheel/build-env.js";
import { parsePylock } from "../src/python/pylock.js";
import { DEFAULT_PYTHON_LOCK, type Python } from "../src/spec/python.js";
import { DEFAULT_VERIFY } from "../src/spec/verify.js";
import { type SimpleIndex, startSimpleIndex } from "./support/simple-index.js";
import { type BuiltWheel, buildWheel, lockPackageEntry } from "./support/wheels.js";

let work: TempDir;
let index: SimpleIndex;
let http: PooledHttpClient;
const built: BuiltWheel[] = [];

const python: Python = {
  version: "3.11.7",
  abi: "cp311",
  interpreter_package: "ocx.sh/python/cpython:3.11.7",
  lock: DEFAULT_PYTHON_LOCK,
  entrypoints: "auto",
};

beforeAll(async () => {
  work = await tempDir("pkg-mirror-build-env-");
  for (const name of ["app", "dep-a", "dep-b", "dep-c", "dep-d"]) {
    const module = name.replace("-", "_");
    built.push(
      await buildWheel(work.path, {
        name,
        version: "1.0",
        files: { [`${module}/__init__.py`]: `X = '${name}'\n` },
      }),
    );
  }
  index = await startSimpleIndex({
    flavour: "json",
    projects: Object.fromEntries(built.map((w) => [w.filename.split("-")[0] as string, [{ wheel: w }]])),
  });
  http = createHttpClient({ env: {} });
}, 120_000);

afterAll(async () => {
  await http?.close();
  await index?.stop();
  await work?.remove();
});

const lockText = () =>
  `lock-version = "1.0"\ncreated-by = "tests"\n${built
    .map((w) => lockPackageEntry(index.url, w.filename.split("-")[0]?.replace("_", "-") ?? "", "1.0", w))
    .join("")}`;

async function build(name: string, slotSize: number) {
  const workDir = join(work.path, name);
  const unpackedAtCreate: number[] = [];
  const downloads: string[] = [];
  const downloader = createDownloader({
    http,
    verify: DEFAULT_VERIFY,
    sourceType: "pylock",
    maxDownloads: 8,
  });
  const limit = pLimit(slotSize);
  const outcomes = await buildEnvPlatforms(["linux/amd64", "linux/arm64"], {
    lock: parsePylock(lockText(), "pylock.toml"),
    app: "app",
    appVersion: "1.0",
    python,
    wheels: { "linux/amd64": ["any"], "linux/arm64": ["any"] },
    interpreterDigest: `sha256:${"ab".repeat(32)}`,
    workDir,
    downloader: {
      ...downloader,
      download: (task) => {
        downloads.push(task.asset.name);
        return downloader.download(task);
      },
    },
    repackSlot: (work) => limit(work),
    create: async (options: CreateBundleOptions) => {
      // the scratch trees of wheels being repacked right now sit beside the layers
      const entries = await readdir(join(workDir, "layers"));
      unpackedAtCreate.push(entries.filter((e) => e.startsWith(".repack-")).length);
      return createBundle(options);
    },
    log: silentLogger,
  });
  return { outcomes, unpackedAtCreate, downloads };
}

describe("buildEnvPlatforms", () => {
  it("unpacks no more wheels at once than its repack slot admits", async () => {
    const one = await build("slot-1", 1);
    expect(one.outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(one.unpackedAtCreate).toHaveLength(5);
    expect(Math.max(...one.unpackedAtCreate)).toBe(1);
    const two = await build("slot-2", 2);
    expect(Math.max(...two.unpackedAtCreate)).toBeLessThanOrEqual(2);
  });

  it("downloads and repacks a wheel two keys share once", async () => {
    const { outcomes, downloads, unpackedAtCreate } = await build("shared", 5);
    expect(downloads.sort()).toEqual(built.map((w) => w.filename).sort());
    expect(unpackedAtCreate).toHaveLength(5);
    const [amd64, arm64] = outcomes;
    expect(amd64?.ok && arm64?.ok && amd64.layers.map((l) => l.digest)).toEqual(
      arm64?.ok && arm64.layers.map((l) => l.digest),
    );
  });
});
