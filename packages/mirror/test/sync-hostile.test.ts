import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TempDir, TestServer } from "@pkg/testkit";
import { describe, expect, it } from "vitest";
import { buildAsset } from "./support/archive-kinds.js";
import { type HostileAsset, hostileCorpus } from "./support/hostile-corpus.js";
import { helloScript } from "./support/sample-upstream.js";
import { useSyncEnv } from "./support/sync-env.js";
import {
  buildTimeOf,
  listTags,
  startUpstream,
  syncReport,
  syncSpec,
  tagDigests,
} from "./support/sync-run.js";

const PLATFORM = "linux/amd64";
const SECRET = "do not touch\n";

// <work>/run/{wd, sentinel}: a task's tree is wd/hello/<version>/linux-amd64/tree, five levels below run.
let run: string;
let sentinel: string;
let corpus: Array<HostileAsset & { version: string; asset: string }>;

const goodVersions = ["1.0.0", "2.0.0"];

const env = useSyncEnv("pkg-mirror-hostile-", { forge: startHostileForge });

async function startHostileForge(work: TempDir): Promise<TestServer> {
  run = join(work.path, "run");
  sentinel = join(run, "sentinel");
  await mkdir(sentinel, { recursive: true });
  await writeFile(join(sentinel, "secret"), SECRET);
  corpus = hostileCorpus(sentinel, 5).map((hostile, i) => {
    const version = `1.${i + 1}.0`;
    return { ...hostile, version, asset: `hello-${version}-linux-amd64.${hostile.ext}` };
  });
  const releases = [];
  for (const version of goodVersions) {
    const bytes = await buildAsset(
      join(work.path, "scratch", version),
      "tar",
      helloScript(version, PLATFORM),
    );
    releases.push({ version, assets: new Map([[`hello-${version}-linux-amd64.tar`, bytes]]) });
  }
  for (const hostile of corpus) {
    const file = join(work.path, "scratch", hostile.asset);
    await mkdir(join(work.path, "scratch"), { recursive: true });
    await hostile.write(file);
    releases.push({ version: hostile.version, assets: new Map([[hostile.asset, await readFile(file)]]) });
  }
  return startUpstream("acme/hello", releases);
}

describe("pkg-mirror package sync: hostile archives", () => {
  it("fails each hostile pair alone with a clear message, publishes the rest, and writes nothing outside the work directory", async () => {
    const yaml = syncSpec(env.registry.host, "acme/hostile", {
      assets: { [PLATFORM]: ["-linux-amd64\\.(tar|zip)$"] },
      platforms: { [PLATFORM]: { runner: "ubuntu-24.04" } },
    });
    const { report, stderr } = await syncReport(
      env.work.path,
      "hostile.yml",
      yaml,
      env.forge,
      ["--work-dir", "run/wd"],
      1,
    );
    expect(report.counts).toMatchObject({ published: 2, failed: corpus.length });
    for (const hostile of corpus) {
      const pair = report.versions.find((v) => v.version === hostile.version)?.platforms[0];
      expect(pair?.status, hostile.label).toBe("failed");
      expect(pair?.error?.exit_code, hostile.label).toBe(65);
      expect(pair?.error?.message, hostile.label).toMatch(
        new RegExp(`^${hostile.asset.replace(/\./g, "\\.")}: `),
      );
      expect(pair?.error?.message, hostile.label).toMatch(hostile.message);
      expect(stderr).toContain(`${hostile.version} ${PLATFORM}: ${pair?.error?.message}`);
    }

    const ts = buildTimeOf(report);
    expect(await listTags(env.registry.url, "acme/hostile")).toEqual(
      ["1", "1.0", "1.0.0", `1.0.0_${ts}`, "2", "2.0", "2.0.0", `2.0.0_${ts}`, "latest"].sort(),
    );
    const tags = await tagDigests(env.registry.host, "acme/hostile");
    expect(tags.latest).toBe(tags["2.0.0"]);

    expect((await readdir(run)).sort()).toEqual(["sentinel", "wd"]);
    expect(await readdir(sentinel)).toEqual(["secret"]);
    expect((await stat(join(sentinel, "secret"))).nlink).toBe(1);
    expect(await readFile(join(sentinel, "secret"), "utf8")).toBe(SECRET);
  });
});
