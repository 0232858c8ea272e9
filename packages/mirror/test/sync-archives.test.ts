import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ArchiveKind, buildAsset, isArchiveKind, kindSuffix } from "./support/archive-kinds.js";
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
} from "./support/sync-run.js";

/**
 * Every asset kind once: linux/amd64 archives strip one component (the default), linux/arm64
 * archives two (a per-platform strip_components), the darwin platforms take bare binaries.
 */
const layout: Record<string, Record<string, ArchiveKind>> = {
  "1.0.0": { "linux/amd64": "tar.gz", "linux/arm64": "tar.bz2", "darwin/arm64": "gz", "darwin/amd64": "bz2" },
  "1.1.0": { "linux/amd64": "tar.xz", "linux/arm64": "tar", "darwin/arm64": "xz", "darwin/amd64": "binary" },
  "1.2.0": { "linux/amd64": "tar.zst", "linux/arm64": "zip", "darwin/arm64": "zst", "darwin/amd64": "gz" },
};
const platforms = ["linux/amd64", "linux/arm64", "darwin/arm64", "darwin/amd64"];
const prefixOf = (version: string, platform: string) =>
  platform === "linux/arm64" ? ["dist", `hello-${version}`] : [`hello-${version}`];
const assetName = (version: string, platform: string, kind: ArchiveKind) =>
  `hello-${version}-${platform.replace("/", "-")}${kindSuffix(kind)}`;

const env = useSyncEnv("pkg-mirror-archives-", {
  forge: async (work) => {
    const releases = await Promise.all(
      Object.entries(layout).map(async ([version, kinds]) => {
        const assets = new Map<string, Buffer>();
        for (const [platform, kind] of Object.entries(kinds)) {
          const dir = join(work.path, "scratch", version, platform.replace("/", "-"));
          const prefix = isArchiveKind(kind) ? prefixOf(version, platform) : [];
          assets.set(
            assetName(version, platform, kind),
            await buildAsset(dir, kind, helloScript(version, platform), prefix),
          );
        }
        return { version, assets };
      }),
    );
    return startUpstream("acme/hello", releases);
  },
});

const spec = () =>
  syncSpec(env.registry.host, "acme/kinds", {
    assets: Object.fromEntries(
      platforms.map((p) => [p, [`^hello-[0-9.]+-${p.replace("/", "-")}(\\.[a-z0-9.]+)?$`]]),
    ),
    asset_type: {
      default: { type: "archive", strip_components: { default: 1, platforms: { "linux/arm64": 2 } } },
      platforms: {
        "darwin/arm64": { type: "binary", name: "hello" },
        "darwin/amd64": { type: "binary", name: "hello" },
      },
    },
    platforms: runnersFor(platforms),
  });

describe("pkg-mirror package sync: every archive kind", () => {
  it("unpacks tar (gz, xz, zst, bz2, none), zip and bare gz/xz/zst/bz2 binaries; each package pulled back runs", async () => {
    const { report } = await syncReport(env.work.path, "kinds.yml", spec(), env.forge);
    expect(report.counts).toMatchObject({ published: 12, failed: 0 });
    const ts = buildTimeOf(report);
    const exact = Object.keys(layout).flatMap((v) => [v, `${v}_${ts}`]);
    expect(await listTags(env.registry.url, "acme/kinds")).toEqual(
      [...exact, "1", "1.0", "1.1", "1.2", "latest"].sort(),
    );

    const runs = Object.keys(layout).flatMap((version) =>
      platforms.map(async (platform) => {
        const out = join(env.work.path, "pulled", version, platform.replace("/", "-"));
        const ref = `${env.registry.host}/acme/kinds:${version}`;
        return [`${version} ${platform}`, await pullAndRun(env.work.path, ref, platform, out)] as const;
      }),
    );
    for (const [what, printed] of await Promise.all(runs)) expect(printed).toBe(`hello ${what}\n`);
  });
});
