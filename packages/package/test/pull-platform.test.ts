import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectHostPlatform } from "../src/platform/index.js";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

let registry: RunningRegistry;
let work: TempDir;
let tree: string;
let outputs = 0;

/** Pushes the sample bundle to `repository:1.0.0` once per platform key. */
async function publish(repository: string, keys: string[], bundle: string): Promise<string> {
  const ref = `${registry.host}/${repository}:1.0.0`;
  for (const key of keys) {
    const pushed = await runPkg(["package", "push", "-i", ref, "-p", key, bundle]);
    expect(pushed.code, pushed.stderr).toBe(0);
  }
  return ref;
}

async function pull(ref: string, args: string[]) {
  const out = join(work.path, `out-${++outputs}`);
  const result = await runPkg(["package", "pull", ref, "-o", out, ...args]);
  return { ...result, out };
}

let glibcOnly: string;
let glibcAndMusl: string;
let plainAndMusl: string;

beforeAll(async () => {
  registry = await startRegistry();
  work = await tempDir("pkg-pull-platform-");
  tree = join(work.path, "tree");
  await writeSampleTree(tree);
  const bundle = join(work.path, "tool.tar.zst");
  expect((await runPkg(["package", "create", tree, "-o", bundle])).code).toBe(0);
  glibcOnly = await publish("acme/glibc-only", ["linux/amd64+libc.glibc", "linux/arm64+libc.glibc"], bundle);
  glibcAndMusl = await publish("acme/two-libcs", ["linux/amd64+libc.musl", "linux/amd64+libc.glibc"], bundle);
  plainAndMusl = await publish("acme/plain-musl", ["linux/amd64+libc.musl", "linux/amd64"], bundle);
});
afterAll(async () => {
  await registry?.stop();
  await work?.remove();
});

describe("pkg package pull --platform: choosing an index entry by libc", () => {
  it("takes the glibc entry of a glibc-only index for a key without +libc on a glibc host, and says so", async () => {
    const result = await pull(glibcOnly, ["--platform", "linux/amd64", "--libc", "glibc"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("selected linux/amd64+libc.glibc (host libc glibc)\n");
    expect(await readFile(join(result.out, "content", "bin", "tool"))).toEqual(
      await readFile(join(tree, "bin", "tool")),
    );

    const json = await pull(glibcOnly, ["--platform", "linux/amd64", "--libc", "glibc", "--format", "json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe("");
    expect(JSON.parse(json.stdout)).toMatchObject({ platform: "linux/amd64+libc.glibc", libc: "glibc" });
  });

  it("asks for the detected libc of this machine when neither +libc nor --libc is given", async () => {
    const libc = detectHostPlatform().libc ?? "glibc";
    const result = await pull(glibcAndMusl, ["--platform", "linux/amd64", "--format", "json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ platform: `linux/amd64+libc.${libc}`, libc });
  });

  it("refuses a glibc-only index for a musl host, naming what it has", async () => {
    const result = await pull(glibcOnly, ["--platform", "linux/amd64", "--libc", "musl"]);
    expect(result.code).toBe(65);
    expect(result.stderr.trim()).toMatch(
      /^pkg: .*acme\/glibc-only:1\.0\.0 has no entry for linux\/amd64 \(host libc musl\) \(it has: linux\/amd64\+libc\.glibc, linux\/arm64\+libc\.glibc\)$/,
    );
  });

  it("prefers the featureless entry for a key without +libc, and takes exactly the named libc otherwise", async () => {
    const plain = await pull(plainAndMusl, ["--platform", "linux/amd64", "--libc", "musl"]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).toContain("selected linux/amd64 (host libc musl)\n");

    const musl = await pull(plainAndMusl, ["--platform", "linux/amd64+libc.musl"]);
    expect(musl.code, musl.stderr).toBe(0);
    expect(musl.stderr).toContain("selected linux/amd64+libc.musl (libc musl)\n");

    const glibc = await pull(plainAndMusl, ["--platform", "linux/amd64+libc.glibc"]);
    expect(glibc.code).toBe(65);
    expect(glibc.stderr).toContain("has no entry for linux/amd64+libc.glibc");

    const two = await pull(glibcAndMusl, ["--platform", "linux/amd64+libc.glibc", "--format", "json"]);
    expect(two.code, two.stderr).toBe(0);
    expect(JSON.parse(two.stdout)).toMatchObject({ platform: "linux/amd64+libc.glibc", libc: "glibc" });
  });
});
