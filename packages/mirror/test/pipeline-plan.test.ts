import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MediaType, memoryBlob, openRegistry, type Target } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import { type CliResult, runCli } from "@pkg/testkit";
import { beforeAll, describe, expect, it } from "vitest";
import type { PlanDocument } from "../src/pipeline/documents/plan-document.js";
import { readPublishedSummary } from "../src/plan/read-summary.js";
import { type SummaryTags, serializeSummary } from "../src/plan/summary-document.js";
import { EMPTY_JSON, summaryConfig, summaryManifest } from "../src/plan/summary-manifest.js";
import {
  helloAssetKeys,
  helloAssetName,
  helloForge,
  runnersFor,
  sameKind,
} from "./support/hello-releases.js";
import { planSchemaValidator } from "./support/plan-schema.js";
import { useSyncEnv } from "./support/sync-env.js";
import { mirrorBin, syncReport, syncSpec } from "./support/sync-run.js";

const PLATFORMS = ["linux/amd64", "linux/arm64"];
const kinds = sameKind(PLATFORMS, "tar.gz");

const env = useSyncEnv("pkg-mirror-plan-", {
  proxy: true,
  forge: helloForge(["1.0.0", "1.1.0"], kinds),
});

let validate: (document: unknown) => void;
beforeAll(async () => {
  validate = await planSchemaValidator();
});

// biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata's own placeholder
const INSTALL_PATH = "${installPath}";
const PATH_ENV = { key: "PATH", type: "path", value: INSTALL_PATH, required: true };

/** A metadata file of its own for a test (they edit it). */
async function metadataFile(name: string, metadata: Record<string, unknown>): Promise<string> {
  await writeFile(join(env.work.path, name), JSON.stringify({ type: "bundle", version: 1, ...metadata }));
  return name;
}

/** The spec of `repository` behind the fault proxy, every platform of `platforms` built. */
function spec(
  repository: string,
  metadata: string,
  extra: Record<string, unknown> = {},
  platforms = PLATFORMS,
) {
  const own = Object.fromEntries(Object.entries(kinds).filter(([p]) => platforms.includes(p)));
  return syncSpec(env.proxy.host, repository, {
    ...helloAssetKeys(own),
    metadata: { default: metadata },
    platforms: runnersFor(platforms),
    tests: [{ name: "hello", command: "hello" }],
    ...extra,
  });
}

async function plan(file: string, yaml: string, args: string[] = []): Promise<CliResult> {
  await writeFile(join(env.work.path, file), yaml);
  return runCli(mirrorBin, ["package", "pipeline", "plan", "--spec", file, ...args], {
    cwd: env.work.path,
    env: { PKG_FORGEONE_API_URL: env.forge.url },
  });
}

/** `pipeline plan --format json`: exit 0, a document valid against `pkg-mirror schema plan`. */
async function planJson(file: string, yaml: string): Promise<PlanDocument> {
  const result = await plan(file, yaml, ["--format", "json"]);
  expect(result.code, result.stderr).toBe(0);
  const document = JSON.parse(result.stdout) as PlanDocument;
  validate(document);
  return document;
}

async function sync(file: string, yaml: string, args: string[] = []) {
  const work = `work-${file.replace(/\.yml$/, "")}`;
  await syncReport(env.work.path, file, yaml, env.forge, ["--work-dir", work, ...args]);
}

const STAMP = /^\d{14}$/;
const kindsOf = (document: PlanDocument) =>
  document.versions.map((v) => [v.source_version, v.kind, v.platforms.join(" ")]);

describe("pkg-mirror package pipeline plan", () => {
  it("plans new versions, backfills a partly published one, reports a metadata edit as drift (never new), and plans nothing once current", async () => {
    const metadata = await metadataFile("kinds.json", { env: [PATH_ENV], binaries: ["hello"] });
    const full = spec("acme/kinds", metadata);

    const first = await planJson("kinds.yml", full);
    expect(kindsOf(first)).toEqual([
      ["1.0.0", "new", "linux/amd64 linux/arm64"],
      ["1.1.0", "new", "linux/amd64 linux/arm64"],
    ]);
    expect(first).toMatchObject({
      schema_version: 1,
      target: `${env.proxy.host}/acme/kinds`,
      versions_resolved: { min_inclusive: true, max_inclusive: false },
      has_new: true,
      has_drift: false,
    });
    const [v100] = first.versions;
    expect(v100?.version).toMatch(/^1\.0\.0_\d{14}$/);
    expect(v100?.assets.map((a) => [a.platform, a.asset_name, a.url, a.digest?.slice(0, 7)])).toEqual(
      PLATFORMS.map((p) => {
        const name = helloAssetName("1.0.0", p, "tar.gz");
        return [p, name, `${env.forge.url}/files/${name}`, "sha256:"];
      }),
    );
    expect(first.legs["linux/amd64"]).toEqual({
      runner: ["ubuntu-24.04"],
      platform_slug: "linux-amd64",
      container_platform: "linux/amd64",
      containers: [{ id: "native", shell: "bash" }],
      tests: [{ name: "hello", command: "hello" }],
      prefix: [],
    });

    // an earlier run published linux/amd64 of 1.0.0 only
    await sync("kinds-amd64.yml", spec("acme/kinds", metadata, {}, ["linux/amd64"]), ["--version", "1.0.0"]);
    const partial = await planJson("kinds.yml", full);
    expect(kindsOf(partial)).toEqual([
      ["1.0.0", "backfill", "linux/arm64"],
      ["1.1.0", "new", "linux/amd64 linux/arm64"],
    ]);
    const backfill = partial.versions[0];
    expect(backfill?.carried).toEqual(["linux/amd64"]);
    expect(backfill?.own_tags?.map((t) => t.replace(/_\d{14}$/, "_T"))).toEqual(["1.0.0_T"]);
    expect(partial.versions[1]?.carried).toBeUndefined();

    await sync("kinds.yml", full);
    const current = await planJson("kinds.yml", full);
    expect(current).toMatchObject({ versions: [], has_new: false, has_drift: false });
    const text = await plan("kinds.yml", full);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split("\n").at(-2)).toBe("nothing to do: target is up to date");

    // the metadata file changes after both versions were published
    await metadataFile("kinds.json", {
      env: [PATH_ENV, { key: "HELLO_HOME", type: "constant", value: INSTALL_PATH }],
      binaries: ["hello"],
    });
    const drifted = await planJson("kinds.yml", full);
    expect(drifted).toMatchObject({ has_new: false, has_drift: true });
    expect(drifted.versions.map((v) => [v.source_version, v.kind, v.platforms, v.assets])).toEqual([
      ["1.0.0", "metadata-drift", [], []],
      ["1.1.0", "metadata-drift", [], []],
    ]);
    for (const v of drifted.versions) {
      expect(v.version.startsWith(`${v.source_version}_`)).toBe(true);
      expect(v.version.slice(v.source_version.length + 1)).toMatch(STAMP);
      expect(v.drift).toEqual(PLATFORMS.map((platform) => ({ platform, fields: ["env"] })));
    }
  });

  it("adopts the binaries bin_scan filled: no drift until the file itself changes", async () => {
    // the archives hold hello/hello: kept whole, PATH names the directory the scan reads
    const onPath = { ...PATH_ENV, value: `${INSTALL_PATH}/hello` };
    const metadata = await metadataFile("scan.json", { env: [onPath] });
    const yaml = spec("acme/scan", metadata, { bin_scan: "auto", asset_type: { type: "archive" } }, [
      "linux/amd64",
    ]);
    await sync("scan.yml", yaml);
    expect(await planJson("scan.yml", yaml)).toMatchObject({ versions: [], has_drift: false });
    await metadataFile("scan.json", { env: [{ ...onPath, required: false }] });
    const drifted = await planJson("scan.yml", yaml);
    expect(drifted.versions.map((v) => [v.source_version, v.kind, v.drift])).toEqual([
      ["1.0.0", "metadata-drift", [{ platform: "linux/amd64", fields: ["env"] }]],
      ["1.1.0", "metadata-drift", [{ platform: "linux/amd64", fields: ["env"] }]],
    ]);
  });

  it("prints the plain report: target, resolved window, the aligned table, broken excludes with their reason", async () => {
    const metadata = await metadataFile("plain.json", { env: [PATH_ENV] });
    const yaml = spec("acme/plain", metadata, {
      versions: { min: "1.0.0", max: { version: "2.0.0", inclusive: true } },
      build_timestamp: "none",
      platforms: {
        "linux/amd64": { runner: "ubuntu-24.04" },
        "linux/arm64": {
          runner: "ubuntu-24.04-arm",
          exclude: [{ version: "1.1.0", reason: "crashes at start" }],
        },
      },
    });
    const result = await plan("plain.yml", yaml);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        `target: ${env.proxy.host}/acme/plain`,
        "resolved min 1.0.0 (inclusive)",
        "resolved max 2.0.0 (inclusive)",
        "version  kind  platforms",
        "1.0.0    new   linux/amd64, linux/arm64",
        "1.1.0    new   linux/amd64",
        "excluded: 1.1.0 linux/arm64: crashes at start",
        "",
      ].join("\n"),
    );
    const json = await planJson("plain.yml", yaml);
    expect(json.versions[1]?.excluded).toEqual([{ platform: "linux/arm64", reason: "crashes at start" }]);
  });

  it("-o writes plan.json (the document --format json prints) and text goes to stdout", async () => {
    const metadata = await metadataFile("out.json", { env: [PATH_ENV] });
    const yaml = spec("acme/out", metadata, {
      build_timestamp: "none",
      pkg_mirror: { rev: "0123456789abcdef0123456789abcdef01234567" },
    });
    const result = await plan("out.yml", yaml, ["-o", "out/plan.json"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n").slice(0, 2)).toEqual([
      `target: ${env.proxy.host}/acme/out`,
      "pkg_mirror_rev: 0123456789abcdef0123456789abcdef01234567",
    ]);
    const written = JSON.parse(await readFile(join(env.work.path, "out/plan.json"), "utf8"));
    validate(written);
    expect(written).toEqual(await planJson("out.yml", yaml));
    expect(written.pkg_mirror_rev).toBe("0123456789abcdef0123456789abcdef01234567");
  });
});

describe("registry failures fail the plan (69), never reporting published versions as new", () => {
  const unavailable = { status: 503, body: "unavailable" };

  it("a 503 on the tag listing", async () => {
    const metadata = await metadataFile("down.json", { env: [PATH_ENV] });
    const yaml = spec("acme/down", metadata, {}, ["linux/amd64"]);
    await sync("down.yml", yaml);
    env.proxy.setPlan((request) => (request.url.includes("/tags/list") ? unavailable : "pass"));
    try {
      const result = await plan("down.yml", yaml, ["--format", "json"]);
      expect(result.code).toBe(69);
      expect(result.stdout).toBe("");
      // check plans with the same planner: the same refusal
      const check = await runCli(mirrorBin, ["package", "check", "down.yml"], {
        cwd: env.work.path,
        env: { PKG_FORGEONE_API_URL: env.forge.url },
      });
      expect(check.code).toBe(69);
    } finally {
      env.proxy.setPlan(() => "pass");
    }
  });

  it("a 503 on the config reads of the drift scan (the published summary answers the rest)", async () => {
    const metadata = await metadataFile("flaky.json", { env: [PATH_ENV] });
    const yaml = spec("acme/flaky", metadata, {}, ["linux/amd64"]);
    await sync("flaky.yml", yaml);
    expect(await planJson("flaky.yml", yaml)).toMatchObject({ versions: [], has_drift: false });
    // the metadata drifts: the published config blob is read to say how
    await metadataFile("flaky.json", { env: [PATH_ENV, { key: "FLAKY", type: "constant", value: "1" }] });
    const summaryBlob = await summaryBlobOf("acme/flaky");
    const mark = env.proxy.requests.length;
    env.proxy.setPlan((request) =>
      request.url.includes("/blobs/") && !request.url.endsWith(summaryBlob) ? unavailable : "pass",
    );
    try {
      const result = await plan("flaky.yml", yaml, ["--format", "json"]);
      expect(result.code).toBe(69);
      expect(result.stdout).toBe("");
      // the tags and the published summary were read: the drift scan's reads are the ones refused
      expect(result.stderr).toContain("comparing the published metadata of 2 versions");
      expect(result.stderr).toContain("503");
    } finally {
      env.proxy.setPlan(() => "pass");
    }
    const failed = env.proxy.requests.slice(mark).filter((r) => r.status === 503);
    expect(failed.length).toBeGreaterThan(0);
  });
});

function direct(repository: string): Target {
  return openRegistry({ host: env.registry.host, repository });
}

/** The digest of the published summary's config blob (read directly, not through the proxy). */
async function summaryBlobOf(repository: string): Promise<string> {
  const stored = await direct(repository).fetchManifest(PUBLISHED_SUMMARY_TAG);
  if (!stored) throw new Error(`${repository} has no published summary`);
  return summaryConfig(stored.bytes).digest;
}

async function summaryOf(repository: string): Promise<SummaryTags> {
  const read = await readPublishedSummary(direct(repository));
  if (read.status !== "valid") throw new Error(`${repository}: summary ${read.status}`);
  return read.tags;
}

/** Rewrites the summary as a version before per-platform configs wrote it: the same, without them. */
async function writeOldStyleSummary(repository: string): Promise<void> {
  const tags: SummaryTags = new Map(
    [...(await summaryOf(repository))].map(([tag, r]) => [tag, { digest: r.digest, platforms: r.platforms }]),
  );
  const target = direct(repository);
  const config = memoryBlob(serializeSummary(tags));
  const empty = memoryBlob(EMPTY_JSON);
  await target.pushBlob(config);
  await target.pushBlob(empty);
  await target.pushManifest(summaryManifest(config, empty), MediaType.ImageManifest, PUBLISHED_SUMMARY_TAG);
  expect(serializeSummary(await summaryOf(repository)).toString()).not.toContain('"configs"');
}

/** `planJson`, with the registry reads it made: manifest references and blob digests. */
async function planReads(file: string, yaml: string) {
  const mark = env.proxy.requests.length;
  const document = await planJson(file, yaml);
  const paths = env.proxy.requests.slice(mark).map((r) => r.url);
  const last = (path: string) => path.slice(path.lastIndexOf("/") + 1);
  return {
    document,
    manifests: paths.filter((p) => p.includes("/manifests/")).map(last),
    blobs: paths.filter((p) => p.includes("/blobs/")).map(last),
  };
}

async function patchCli(file: string): Promise<{ counts: Record<string, number> }> {
  const result = await runCli(
    mirrorBin,
    ["package", "pipeline", "patch", "--spec", file, "--metadata-only", "--format", "json"],
    { cwd: env.work.path, env: { PKG_FORGEONE_API_URL: env.forge.url } },
  );
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { counts: Record<string, number> };
}

const driftOf = (document: PlanDocument) => document.versions.map((v) => [v.source_version, v.kind, v.drift]);

describe("the drift scan reads each platform's config digest from the published summary", () => {
  it("after a push the plan reads no index nor manifest; a drifted platform's config alone is read, and found", async () => {
    const metadata = await metadataFile("configs.json", { env: [PATH_ENV] });
    // linux/amd64 first, then linux/arm64 added to 1.0.0 (its amd64 manifest carried) and 1.1.0 whole
    await sync("configs-amd64.yml", spec("acme/configs", metadata, {}, ["linux/amd64"]), [
      "--version",
      "1.0.0",
    ]);
    const full = spec("acme/configs", metadata);
    await sync("configs.yml", full);
    for (const [tag, record] of await summaryOf("acme/configs")) {
      expect([...(record.configs?.keys() ?? [])].sort(), tag).toEqual(record.platforms);
    }
    const summaryBlob = await summaryBlobOf("acme/configs");

    const current = await planReads("configs.yml", full);
    expect(current.document).toMatchObject({ versions: [], has_drift: false });
    expect(current.manifests).toEqual([PUBLISHED_SUMMARY_TAG]);
    expect(current.blobs).toEqual([summaryBlob]);

    // linux/arm64 alone gets metadata of its own: its config blob is read (once: both versions
    // carry the same), no index and no manifest
    const arm = await metadataFile("configs-arm.json", {
      env: [PATH_ENV, { key: "HELLO_ARM", type: "constant", value: "1" }],
    });
    const drifted = await planReads(
      "configs.yml",
      spec("acme/configs", metadata, {
        metadata: { default: metadata, platforms: { "linux/arm64": arm } },
      }),
    );
    expect(driftOf(drifted.document)).toEqual([
      ["1.0.0", "metadata-drift", [{ platform: "linux/arm64", fields: ["env"] }]],
      ["1.1.0", "metadata-drift", [{ platform: "linux/arm64", fields: ["env"] }]],
    ]);
    expect(drifted.manifests).toEqual([PUBLISHED_SUMMARY_TAG]);
    expect(drifted.blobs).toHaveLength(2);
    expect(drifted.blobs[0]).toBe(summaryBlob);
  });

  it("a summary left behind by a patch whose summary write failed: plan reports the drift, and patch (all current) sets the summary right", async () => {
    const metadata = await metadataFile("stale.json", { env: [PATH_ENV] });
    const yaml = spec("acme/stale", metadata);
    await sync("stale.yml", yaml);
    const before = await direct("acme/stale").fetchManifest(PUBLISHED_SUMMARY_TAG);
    await metadataFile("stale.json", { env: [PATH_ENV, { key: "STALE", type: "constant", value: "1" }] });
    expect((await patchCli("stale.yml")).counts).toMatchObject({ patched: 4 });
    // as if the patch's summary write had failed: the summary still names the old configs
    if (!before) throw new Error("no summary");
    await direct("acme/stale").pushManifest(before.bytes, MediaType.ImageManifest, PUBLISHED_SUMMARY_TAG);
    expect((await planJson("stale.yml", yaml)).has_drift).toBe(true);
    // the remedy plan names finds every platform current, and refreshes the summary from its reads
    expect((await patchCli("stale.yml")).counts).toEqual({ patched: 0, current: 4, refused: 0, failed: 0 });
    const healed = await planReads("stale.yml", yaml);
    expect(healed.document).toMatchObject({ versions: [], has_drift: false });
    expect(healed.manifests).toEqual([PUBLISHED_SUMMARY_TAG]);
  });

  it("an older summary without configs still serves: the scan reads those tags' indexes, and finds the drift", async () => {
    const metadata = await metadataFile("old.json", { env: [PATH_ENV] });
    const yaml = spec("acme/old-summary", metadata);
    await sync("old.yml", yaml);
    await writeOldStyleSummary("acme/old-summary");

    const current = await planReads("old.yml", yaml);
    expect(current.document).toMatchObject({ versions: [], has_drift: false });
    // the summary, then per version its index and the manifest of each platform
    const own = current.manifests.filter(
      (ref) => !ref.startsWith("sha256:") && ref !== PUBLISHED_SUMMARY_TAG,
    );
    expect(own.map((tag) => tag.replace(/_\d{14}$/, "_T")).sort()).toEqual(["1.0.0_T", "1.1.0_T"]);
    expect(current.manifests.filter((ref) => ref.startsWith("sha256:"))).toHaveLength(2 * PLATFORMS.length);

    await metadataFile("old.json", { env: [PATH_ENV, { key: "OLD", type: "constant", value: "1" }] });
    const drifted = await planJson("old.yml", yaml);
    expect(driftOf(drifted)).toEqual(
      ["1.0.0", "1.1.0"].map((v) => [
        v,
        "metadata-drift",
        PLATFORMS.map((platform) => ({ platform, fields: ["env"] })),
      ]),
    );
  });
});
