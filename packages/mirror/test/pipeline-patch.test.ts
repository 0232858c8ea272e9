import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry, parseManifestDocument, sha256Digest } from "@pkg/oci";
import { serializeMetadata } from "@pkg/package";
import { type CliResult, runCli } from "@pkg/testkit";
import { describe, expect, it } from "vitest";
import type { PlanDocument } from "../src/pipeline/documents/plan-document.js";
import type { PatchReport } from "../src/pipeline/patch/patch.js";
import { readPublishedSummary } from "../src/plan/read-summary.js";
import { helloAssetKeys, helloForge, runnersFor, sameKind } from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import { mirrorBin, pullAndRun, syncReport, syncSpec, tagDigestsOf } from "./support/sync-run.js";

const PLATFORMS = ["linux/amd64", "linux/arm64"];
const kinds = sameKind(PLATFORMS, "tar.gz");
const env = useSyncEnv("pkg-mirror-patch-", { proxy: true, forge: helloForge(["1.0.0", "1.1.0"], kinds) });

// biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata's own placeholder
const INSTALL_PATH = "${installPath}";
const PATH_ENV = { key: "PATH", type: "path", value: INSTALL_PATH, required: true };
const HOME_ENV = { key: "HELLO_HOME", type: "constant", value: INSTALL_PATH };
const PIN = `sha256:${"c".repeat(64)}`;

async function metadataFile(metadata: Record<string, unknown>): Promise<void> {
  await writeFile(
    join(env.work.path, "patch.json"),
    JSON.stringify({ type: "bundle", version: 1, ...metadata }),
  );
}

const yaml = (repository: string) =>
  syncSpec(env.proxy.host, repository, {
    ...helloAssetKeys(kinds),
    metadata: { default: "patch.json" },
    platforms: runnersFor(PLATFORMS),
    tests: [{ name: "hello", command: "hello" }],
    announce: { package: "acme/patched" },
  });

function pipeline(args: string[]): Promise<CliResult> {
  return runCli(mirrorBin, ["package", "pipeline", ...args], {
    cwd: env.work.path,
    env: { PKG_FORGEONE_API_URL: env.forge.url, PKG_ANNOUNCE_TOKEN: "" },
  });
}

async function patch(args: string[] = [], code = 0): Promise<{ report: PatchReport; result: CliResult }> {
  const result = await pipeline([
    "patch",
    "--spec",
    "patch.yml",
    "--metadata-only",
    "--format",
    "json",
    ...args,
  ]);
  expect(result.code, result.stderr).toBe(code);
  return { report: JSON.parse(result.stdout) as PatchReport, result };
}

/** Requests the proxy saw from `from` on that write to the registry. */
const writesSince = (from: number) =>
  env.proxy.requests.slice(from).filter((r) => r.method !== "GET" && r.method !== "HEAD");
/** The digests blob uploads named (`?digest=` of the closing PUT, or a monolithic POST). */
const uploadedDigests = (from: number) =>
  writesSince(from)
    .filter((r) => r.url.includes("/blobs/uploads/") && r.url.includes("digest="))
    .map((r) => decodeURIComponent(new URL(r.url, "http://x").searchParams.get("digest") ?? ""));

const target = () => openRegistry({ host: env.registry.host, repository: "acme/patched" }, { env: {} });

async function manifestOf(tag: string, platform: string) {
  const stored = await target().fetchManifest(tag);
  const doc = stored && parseManifestDocument(stored.bytes, tag);
  if (doc?.kind !== "index") throw new Error(`${tag} is no index`);
  const [os, architecture] = platform.split("/");
  const entry = doc.index.manifests.find(
    (m) => m.platform?.os === os && m.platform?.architecture === architecture,
  );
  const child = entry && (await target().fetchManifest(entry.digest));
  const manifest = child && parseManifestDocument(child.bytes, entry.digest);
  if (manifest?.kind !== "manifest") throw new Error(`${tag} ${platform}: no manifest`);
  return { digest: entry?.digest, config: manifest.manifest.config.digest, layers: manifest.manifest.layers };
}

describe("pkg-mirror package pipeline patch", () => {
  it("republishes edited metadata with a config-sized upload only, re-points the tags, is idempotent, and plan reports no drift after", async () => {
    await metadataFile({ env: [PATH_ENV], binaries: ["hello"] });
    await writeFile(join(env.work.path, "patch.yml"), yaml("acme/patched"));
    await syncReport(env.work.path, "patch.yml", yaml("acme/patched"), env.forge, [
      "--work-dir",
      "work-patch",
    ]);
    const before = await manifestOf("1.1.0", "linux/amd64");

    // nothing drifted yet: every platform current, nothing written
    let mark = env.proxy.requests.length;
    const idle = await patch();
    expect(idle.report.counts).toEqual({ patched: 0, current: 4, refused: 0, failed: 0 });
    expect(writesSince(mark)).toEqual([]);

    const edited = { type: "bundle" as const, version: 1, env: [PATH_ENV, HOME_ENV], binaries: ["hello"] };
    await metadataFile(edited);
    const drifted = (await pipeline(["plan", "--spec", "patch.yml", "--format", "json"])).stdout;
    expect((JSON.parse(drifted) as PlanDocument).has_drift).toBe(true);

    mark = env.proxy.requests.length;
    const { report, result } = await patch();
    const newConfig = sha256Digest(serializeMetadata(edited as Parameters<typeof serializeMetadata>[0]));
    // the only blobs uploaded: the new metadata (one config for both platforms) and the published
    // summary's document twice (first without the tags about to move, then with them re-pointed); no layer
    const summary = await target().fetchManifest("__pkg.published");
    const summaryDoc = summary && parseManifestDocument(summary.bytes, "summary");
    const summaryConfig = summaryDoc?.kind === "manifest" ? summaryDoc.manifest.config.digest : "";
    const uploaded = uploadedDigests(mark);
    expect(uploaded).toHaveLength(3);
    expect(uploaded).toEqual(expect.arrayContaining([newConfig, summaryConfig]));
    const layers = new Set<string>();
    for (const tag of ["1.0.0", "1.1.0"])
      for (const platform of PLATFORMS)
        for (const l of (await manifestOf(tag, platform)).layers) layers.add(l.digest);
    expect(uploadedDigests(mark).filter((d) => layers.has(d))).toEqual([]);
    expect(report.counts).toEqual({ patched: 4, current: 0, refused: 0, failed: 0 });
    expect(report.tiles.map((t) => [t.version, t.platform, t.status, t.fields])).toEqual([
      ["1.0.0", "linux/amd64", "patched", ["env"]],
      ["1.0.0", "linux/arm64", "patched", ["env"]],
      ["1.1.0", "linux/amd64", "patched", ["env"]],
      ["1.1.0", "linux/arm64", "patched", ["env"]],
    ]);
    const v110 = report.tiles.find((t) => t.version === "1.1.0" && t.platform === "linux/amd64");
    expect(v110?.tags?.map((t) => t.replace(/_\d{14}$/, "_T"))).toEqual([
      "1.1.0_T",
      "1.1.0",
      "1.1",
      "1",
      "latest",
    ]);
    expect(
      report.tiles.find((t) => t.version === "1.0.0")?.tags?.map((t) => t.replace(/_\d{14}$/, "_T")),
    ).toEqual(["1.0.0_T", "1.0.0", "1.0"]);
    expect(result.stderr).toContain("notice: index announce skipped: no PKG_ANNOUNCE_TOKEN");
    expect(report.announce?.status).toBe("skipped_no_credential");

    const after = await manifestOf("latest", "linux/amd64");
    expect(after.digest).toBe(v110?.manifest?.to);
    expect(after.config).toBe(newConfig);
    expect(after.layers).toEqual(before.layers);
    expect(after.config).not.toBe(before.config);
    const out = join(env.work.path, "pulled");
    expect(
      await pullAndRun(env.work.path, `${env.registry.host}/acme/patched:1.1.0`, "linux/amd64", out),
    ).toContain("1.1.0");
    expect(JSON.parse(await readFile(join(out, "metadata.json"), "utf8")).env).toEqual([PATH_ENV, HOME_ENV]);

    // a second patch finds every platform current and writes nothing
    const tags = await tagDigestsOf(target());
    mark = env.proxy.requests.length;
    const again = await patch();
    expect(again.report.counts).toEqual({ patched: 0, current: 4, refused: 0, failed: 0 });
    expect(writesSince(mark)).toEqual([]);
    expect(await tagDigestsOf(target())).toEqual(tags);
    const plan = await pipeline(["plan", "--spec", "patch.yml", "--format", "json"]);
    expect(JSON.parse(plan.stdout)).toMatchObject({ has_drift: false, versions: [] });
  });

  it("takes the tags it re-points out of the published summary first: when the update after fails, plan reads their indexes and sees the drift the old summary hid", async () => {
    const first = { env: [PATH_ENV], binaries: ["hello"] };
    await metadataFile(first);
    await writeFile(join(env.work.path, "stale.yml"), yaml("acme/stale"));
    await syncReport(env.work.path, "stale.yml", yaml("acme/stale"), env.forge, ["--work-dir", "work-stale"]);
    const stale = openRegistry({ host: env.registry.host, repository: "acme/stale" }, { env: {} });
    const before = await readPublishedSummary(stale);
    if (before.status !== "valid") throw new Error(`no published summary: ${before.status}`);
    expect(before.tags.has("1.1.0")).toBe(true);

    await metadataFile({ ...first, env: [PATH_ENV, HOME_ENV] });
    // every write of the summary after the first tag was re-pointed fails
    let repointing = false;
    env.proxy.setPlan((request) => {
      if (request.method !== "PUT" || !request.url.includes("/acme/stale/manifests/")) return "pass";
      if (!request.url.endsWith("/__pkg.published"))
        repointing ||= !/\/sha256:[0-9a-f]{64}$/.test(request.url);
      else if (repointing)
        return { status: 500, body: '{"errors":[{"code":"UNKNOWN","message":"disk full"}]}' };
      return "pass";
    });
    let report: PatchReport;
    try {
      const result = await pipeline(["patch", "--spec", "stale.yml", "--metadata-only", "--format", "json"]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain("the published summary was not updated");
      report = JSON.parse(result.stdout) as PatchReport;
    } finally {
      env.proxy.setPlan(() => "pass");
    }
    expect(report.counts).toEqual({ patched: 4, current: 0, refused: 0, failed: 0 });
    const after = await readPublishedSummary(stale);
    if (after.status !== "valid") throw new Error(`no published summary: ${after.status}`);
    expect(report.tags_repointed.filter((tag) => after.tags.has(tag))).toEqual([]);
    expect(report.tags_repointed).toContain("1.1.0");

    // the spec goes back to the first metadata: the registry holds the patched one, and plan says so
    // (the summary from before the patch named the first metadata's config for every tag)
    await metadataFile(first);
    const plan = await pipeline(["plan", "--spec", "stale.yml", "--format", "json"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as PlanDocument).has_drift).toBe(true);
  });

  it("--version and the range select; a rolling alias, an unknown version or no --metadata-only is 64; an added dependency is refused (65) with the remedy", async () => {
    await metadataFile({ env: [PATH_ENV], binaries: ["hello"] });
    const one = await patch(["--version", "1.0.0"]);
    expect(one.report.tiles.map((t) => [t.version, t.status])).toEqual([
      ["1.0.0", "patched"],
      ["1.0.0", "patched"],
    ]);
    const range = await patch(["--min-version", "1.1.0"]);
    expect(range.report.tiles.map((t) => [t.version, t.status])).toEqual([
      ["1.1.0", "patched"],
      ["1.1.0", "patched"],
    ]);

    for (const [args, message] of [
      [["--version", "latest"], "--version latest names a rolling alias"],
      [["--version", "1.1"], "--version 1.1 names a rolling alias"],
      [["--version", "9.9.9"], "--version 9.9.9: no published version"],
    ] as const) {
      const result = await pipeline(["patch", "--spec", "patch.yml", "--metadata-only", ...args]);
      expect(result.code, result.stderr).toBe(64);
      expect(result.stderr).toContain(message);
    }
    const noMode = await pipeline(["patch", "--spec", "patch.yml"]);
    expect(noMode.code).toBe(64);
    expect(noMode.stderr).toContain("needs --metadata-only");

    await metadataFile({
      env: [PATH_ENV],
      binaries: ["hello"],
      dependencies: [{ identifier: `${env.registry.host}/acme/dep:1@${PIN}` }],
    });
    const mark = env.proxy.requests.length;
    const refused = await patch(["--version", "1.1.0"], 65);
    expect(refused.report.tiles.map((t) => [t.status, t.fields])).toEqual([
      ["refused", ["dependencies"]],
      ["refused", ["dependencies"]],
    ]);
    expect(refused.report.tiles[0]?.reason).toContain(
      `adds the dependency ${env.registry.host}/acme/dep:1@${PIN}: pipeline patch downloads nothing and cannot pin a dependency tag: delete the version's tags and mirror it again`,
    );
    expect(refused.result.stderr).toContain("2 platforms refused");
    expect(writesSince(mark)).toEqual([]);
  });
});
