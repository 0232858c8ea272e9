// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata under test
import { mkdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Logger, silentTasks } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageEnvironment, resolveCommand } from "../src/exec/index.js";
import type { Metadata } from "../src/metadata/index.js";
import { detectHostPlatform } from "../src/platform/index.js";
import {
  blobPath,
  type InstallOptions,
  installDependencies,
  installPackage,
  type Store,
} from "../src/store/index.js";
import { sweepStaleWork } from "../src/store/temp.js";
import { file } from "./support/bundle-trees.js";
import { namesIn, type PushedPackage, publishPackage, script } from "./support/exec-packages.js";

let work: TempDir;
let layout: string;
let homes = 0;
let shared: { one: PushedPackage; two: PushedPackage };
let layered: PushedPackage;

const sharedTree = { "bin/tool": script("echo shared"), "share/big.txt": file("x".repeat(1000)) };
const pathEnv = [{ key: "PATH", type: "path", value: "${installPath}/bin" }];

beforeAll(async () => {
  work = await tempDir("pkg-store-");
  layout = join(work.path, "layout");
  // two packages made of the same layer, with different metadata
  shared = {
    one: await publishPackage({
      work: work.path,
      layout,
      reference: "acme/one:1",
      tree: sharedTree,
      metadata: { env: pathEnv },
    }),
    two: await publishPackage({
      work: work.path,
      layout,
      reference: "acme/two:1",
      tree: sharedTree,
      metadata: { env: [...pathEnv, { key: "TWO", type: "constant", value: "2" }] },
    }),
  };
  layered = await publishPackage({
    work: work.path,
    layout,
    reference: "acme/layered:1",
    tree: { "bin/first": script("echo first"), "share/a.txt": file("a") },
    moreLayers: [{ "bin/second": script("echo second"), "share/b/b.txt": file("b") }],
    metadata: { env: pathEnv },
  });
  await publishPackage({
    work: work.path,
    layout,
    reference: "acme/overlap:1",
    tree: { "bin/tool": script("echo first") },
    moreLayers: [{ "bin/tool": script("echo second") }],
    metadata: {},
  });
  await publishPackage({
    work: work.path,
    layout,
    reference: "acme/required:1",
    tree: { "bin/tool": script("echo tool") },
    metadata: { env: [{ key: "PATH", type: "path", value: "${installPath}/libexec", required: true }] },
  });
});
afterAll(async () => {
  await work?.remove();
});

function recordingLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(m),
    warn: (m) => lines.push(`warning: ${m}`),
    progress() {},
    tasks: silentTasks,
  };
}

function options(
  store: Store,
  log: Logger = recordingLog(),
  extra: Partial<InstallOptions> = {},
): InstallOptions {
  return { store, source: { kind: "layout", root: layout }, host: detectHostPlatform(), log, ...extra };
}

const newStore = (): Store => ({ home: join(work.path, `home-${++homes}`) });

describe("the package store", () => {
  it("installs the same package twice at once: both finish with the one install, the loser's copy dropped", async () => {
    const store = newStore();
    const logs = [recordingLog(), recordingLog()];
    const [a, b] = await Promise.all(logs.map((log) => installPackage("acme/one:1", options(store, log))));
    expect(a?.dir).toBe(b?.dir);
    // both went through the whole install: one of them lost each rename
    for (const log of logs) expect(log.lines.filter((l) => l.startsWith("installing"))).toHaveLength(1);
    expect(await namesIn(join(store.home, "packages", "sha256"))).toHaveLength(1);
    expect(await namesIn(join(store.home, "layers", "sha256"))).toHaveLength(1);
    expect(await namesIn(join(store.home, "temp"))).toEqual([]);
    expect(await readFile(join(a?.installPath ?? "", "bin", "tool"), "utf8")).toContain("echo shared");
  });

  it("extracts a layer two packages share once, and links both packages' files to it", async () => {
    const store = newStore();
    const one = await installPackage("acme/one:1", options(store));
    const two = await installPackage("acme/two:1", options(store));
    expect(one.dir).not.toBe(two.dir);
    const [layer] = await namesIn(join(store.home, "layers", "sha256"));
    expect(await namesIn(join(store.home, "layers", "sha256"))).toHaveLength(1);
    const inLayer = await stat(join(store.home, "layers", "sha256", layer ?? "", "share", "big.txt"));
    for (const pkg of [one, two]) {
      const linked = await stat(join(pkg.installPath, "share", "big.txt"));
      expect([linked.ino, linked.dev]).toEqual([inLayer.ino, inLayer.dev]);
    }
    expect(two.metadata.env?.map((e) => e.key)).toEqual(["PATH", "TWO"]);
  });

  it("merges the layers of a package into one content tree, and refuses layers that overlap (65)", async () => {
    const store = newStore();
    const pkg = await installPackage("acme/layered:1", options(store));
    expect(pkg.manifestDigest).toBe(layered.manifestDigest);
    expect(await namesIn(join(pkg.installPath, "bin"))).toEqual(["first", "second"]);
    expect(await namesIn(join(pkg.installPath, "share"))).toEqual(["a.txt", "b"]);
    expect(await namesIn(join(store.home, "layers", "sha256"))).toHaveLength(2);

    await expect(installPackage("acme/overlap:1", options(store))).rejects.toMatchObject({
      exitCode: 65,
      message: "layers overlap: bin/tool is in more than one layer",
    });
    expect(await namesIn(join(store.home, "packages", "sha256"))).toEqual([
      layered.manifestDigest.slice("sha256:".length),
    ]);
    expect(await namesIn(join(store.home, "temp"))).toEqual([]);
  });

  it("refuses a package whose required path entry is not a directory in it (65), installing nothing", async () => {
    const store = newStore();
    await expect(installPackage("acme/required:1", options(store))).rejects.toMatchObject({
      exitCode: 65,
      message:
        "acme/required:1: env[0] (PATH=${installPath}/libexec) is required but is not a directory in the package",
    });
    expect(await namesIn(join(store.home, "packages", "sha256"))).toEqual([]);
  });

  it("takes a damaged blob in the store as absent and fetches it again; offline, that is exit 69", async () => {
    const store = newStore();
    await installPackage("acme/one:1", options(store));
    const index = blobPath(store, shared.one.indexDigest);
    await writeFile(index, "{}");
    await expect(
      installPackage("acme/one:1", options(store, recordingLog(), { offline: true })),
    ).rejects.toMatchObject({
      exitCode: 69,
    });
    const again = await installPackage("acme/one:1", options(store));
    expect(again.manifestDigest).toBe(shared.one.manifestDigest);
    expect(JSON.parse(await readFile(index, "utf8"))).toMatchObject({ manifests: expect.any(Array) });
  });

  it("offline, knows no tag it never resolved (69), even with the package's layer in the store", async () => {
    const store = newStore();
    await installPackage("acme/one:1", options(store));
    await expect(
      installPackage("acme/two:1", options(store, recordingLog(), { offline: true })),
    ).rejects.toMatchObject({
      exitCode: 69,
    });
  });

  it("installs the dependencies of a package that is not in the store, for its environment (as package test does)", async () => {
    const store = newStore();
    const metadata: Metadata = {
      type: "bundle",
      version: 1,
      env: [{ key: "PATH", type: "path", value: "${installPath}/bin" }],
      dependencies: [{ identifier: `r.example/acme/one@${shared.one.manifestDigest}`, visibility: "public" }],
    };
    const dependencies = await installDependencies(metadata, options(store));
    expect([...dependencies.keys()]).toEqual(["one"]);
    const local = { metadata, installPath: join(work.path, "local-tree"), dependencies };
    const { env, packageDirs } = packageEnvironment(local, "self", { PATH: "/usr/bin:/bin" }, "unix");
    const one = dependencies.get("one")?.installPath ?? "";
    expect(packageDirs).toEqual([join(local.installPath, "bin"), join(one, "bin")]);
    expect(env.PATH).toBe(`${local.installPath}/bin:${one}/bin:/usr/bin:/bin`);
    expect(await resolveCommand("tool", packageDirs, env.PATH, "unix")).toEqual({
      path: join(one, "bin", "tool"),
      from: "package",
    });
  });

  it("removes work a crashed process left behind a day ago, and nothing newer", async () => {
    const store = newStore();
    const old = join(store.home, "temp", "123-old");
    const fresh = join(store.home, "temp", "124-new");
    await mkdir(old, { recursive: true });
    await mkdir(fresh);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(old, twoDaysAgo, twoDaysAgo);
    await sweepStaleWork(store);
    expect(await namesIn(join(store.home, "temp"))).toEqual(["124-new"]);
  });
});
