import { join } from "node:path";
import type { TempDir, TestServer } from "@pkg/testkit";
import { describe, expect, it } from "vitest";
import { buildAsset } from "./support/archive-kinds.js";
import { runnersFor } from "./support/hello-releases.js";
import { helloScript } from "./support/sample-upstream.js";
import { useSyncEnv } from "./support/sync-env.js";
import {
  buildTimeOf,
  listTags,
  pullAndRun,
  startUpstream,
  syncReport,
  syncSpec,
  tagDigests,
} from "./support/sync-run.js";

const PLATFORM = "linux/amd64";
const releases = [{ version: "1.0.0" }, { version: "1.1.0" }, { version: "2.0.0-rc1", prerelease: true }];
/** Asset name suffix per variant: the default's glibc build, and a musl build. */
const flavours = { default: "", musl: "-musl" } as const;

const env = useSyncEnv("pkg-mirror-variants-", { forge: startVariantsForge });

async function startVariantsForge(work: TempDir): Promise<TestServer> {
  const upstream = [];
  for (const release of releases) {
    const assets = new Map<string, Buffer>();
    for (const [flavour, suffix] of Object.entries(flavours)) {
      const dir = join(work.path, "scratch", release.version, flavour);
      const script = helloScript(release.version, `${PLATFORM}${suffix}`);
      assets.set(
        `hello-${release.version}-linux-amd64${suffix}.tar.gz`,
        await buildAsset(dir, "tar.gz", script, ["hello"]),
      );
    }
    upstream.push({ ...release, assets });
  }
  return startUpstream("acme/hello", upstream);
}

describe("pkg-mirror package sync: variants and pre-releases", () => {
  it("tags the musl variant under its prefix and name, and the pre-release only under its own tags", async () => {
    const yaml = syncSpec(env.registry.host, "acme/variants", {
      variants: [
        { default: true, assets: { [PLATFORM]: ["-linux-amd64\\.tar\\.gz$"] } },
        { name: "musl", assets: { [PLATFORM]: ["-linux-amd64-musl\\.tar\\.gz$"] } },
      ],
      asset_type: { type: "archive", strip_components: 1 },
      platforms: runnersFor([PLATFORM]),
    });
    const { report } = await syncReport(env.work.path, "variants.yml", yaml, env.forge);
    expect(report.counts).toMatchObject({ published: 6, failed: 0 });
    expect(report.versions.map((v) => `${v.variant ?? ""}:${v.version}`)).toEqual([
      ":1.0.0",
      "musl:1.0.0",
      ":1.1.0",
      "musl:1.1.0",
      ":2.0.0-rc1",
      "musl:2.0.0-rc1",
    ]);
    const rc = report.versions.filter((v) => v.version === "2.0.0-rc1");
    expect(rc.map((v) => v.cascade_tags_written)).toEqual([["2.0.0-rc1"], ["musl-2.0.0-rc1"]]);

    const ts = buildTimeOf(report);
    const track = (prefix: string, rolling: string) => [
      ...["1.0.0", "1.1.0", "2.0.0-rc1"].flatMap((v) => [`${prefix}${v}`, `${prefix}${v}_${ts}`]),
      ...["1", "1.0", "1.1"].map((v) => `${prefix}${v}`),
      rolling,
    ];
    expect(await listTags(env.registry.url, "acme/variants")).toEqual(
      [...track("", "latest"), ...track("musl-", "musl")].sort(),
    );
    const tags = await tagDigests(env.registry.host, "acme/variants");
    expect(tags.latest).toBe(tags["1.1.0"]);
    expect(tags["1"]).toBe(tags["1.1.0"]);
    expect(tags.musl).toBe(tags["musl-1.1.0"]);
    expect(tags["musl-1"]).toBe(tags["musl-1.1.0"]);
    expect(tags.musl).not.toBe(tags.latest);

    const pulls: Array<[string, string]> = [
      ["latest", `hello 1.1.0 ${PLATFORM}\n`],
      ["musl", `hello 1.1.0 ${PLATFORM}-musl\n`],
      ["musl-2.0.0-rc1", `hello 2.0.0-rc1 ${PLATFORM}-musl\n`],
    ];
    for (const [tag, printed] of pulls) {
      const out = join(env.work.path, "pulled", tag);
      expect(
        await pullAndRun(env.work.path, `${env.registry.host}/acme/variants:${tag}`, PLATFORM, out),
      ).toBe(printed);
    }
  });
});
