import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { type Descriptor, MediaType, openLayout, openRegistry, type Target } from "@pkg/oci";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CascadeCheckReport } from "../src/cascade/check.js";
import { repairCascade } from "../src/cascade/repair.js";
import { canonicalJson } from "../src/push/manifest.js";
import {
  DAMAGED_STATUSES,
  damageRepository,
  entriesOf,
  publish,
  writeIndex,
} from "./support/cascade-repo.js";
import { runPkg } from "./support/run-pkg.js";

let registry: RunningRegistry;
let work: TempDir;

beforeAll(async () => {
  registry = await startRegistry();
  work = await tempDir("pkg-cascade-");
});
afterAll(async () => {
  await registry?.stop();
  await work?.remove();
});

const repo = (name: string) => openRegistry({ host: registry.host, repository: name }, { env: {} });

/** Tag -> digest of every tag. */
async function digests(target: Target): Promise<Record<string, string>> {
  const tags = (await target.listTags()).sort();
  const pairs = await Promise.all(
    tags.map(async (tag) => [tag, (await target.fetchManifest(tag))?.descriptor.digest ?? ""] as const),
  );
  return Object.fromEntries(pairs);
}

const statusesOf = (report: CascadeCheckReport) =>
  Object.fromEntries(report.rows.map((row) => [row.tag, row.status]));

async function check(args: string[]): Promise<{ code: number; reports: CascadeCheckReport[] }> {
  const result = await runPkg(["package", "cascade", "check", "--format", "json", ...args]);
  return { code: result.code, reports: JSON.parse(result.stdout) as CascadeCheckReport[] };
}

describe("pkg package cascade against a real registry", () => {
  it("reports each kind of damage, --dry-run writes nothing, repair rewrites every wrong tag once, and check is then clean", async () => {
    const target = repo("acme/damaged");
    await damageRepository(target);
    const ref = `${registry.host}/acme/damaged`;

    const before = await check([ref]);
    expect(before.code).toBe(65);
    expect(statusesOf(before.reports[0] as CascadeCheckReport)).toEqual(DAMAGED_STATUSES);
    const row = (tag: string) => before.reports[0]?.rows.find((r) => r.tag === tag);
    expect(
      row("1.1")?.platforms.map((p) => [p.platform, p.state, p.held[0]?.version, p.expected?.version]),
    ).toEqual([
      ["linux/amd64", "wrong", "1.0.0", "1.1.0"],
      ["linux/arm64", "wrong", "1.0.0", "1.1.0"],
    ]);
    expect(row("1.2.0")?.platforms.map((p) => [p.platform, p.state])).toEqual([
      ["linux/amd64", "ok"],
      ["linux/arm64", "absent"],
    ]);
    expect(row("1.0.0")?.platforms.find((p) => p.platform === "darwin/arm64")?.state).toBe("orphan");
    expect(before.reports[0]).toMatchObject({ leaves: 5, findings: 10, unrepairable: 0, clean: false });

    const text = await runPkg(["package", "cascade", "check", ref]);
    expect(text.code).toBe(65);
    expect(text.stdout).toContain(`${ref}: 5 leaf versions, 13 rolling tags: 10 findings`);
    expect(text.stdout).toMatch(/^1\.1 +stale +linux\/amd64 holds 1\.0\.0, expected 1\.1\.0/m);
    expect(text.stderr).toContain("10 rolling tags not as the fold expects");

    const untouched = await digests(target);
    const tagsFile = join(work.path, "moved.txt");
    const dry = await runPkg(["package", "cascade", "repair", "--dry-run", "--announce-tags", tagsFile, ref]);
    expect(dry.code, dry.stderr).toBe(65);
    expect(dry.stdout).toContain("dry run: 10 to rewrite, 0 unrepairable; nothing written");
    expect(await digests(target)).toEqual(untouched);
    await expect(readFile(tagsFile)).rejects.toThrow();

    const repaired = await runPkg([
      "package",
      "cascade",
      "repair",
      "--announce-tags",
      tagsFile,
      ref,
      "--format",
      "json",
    ]);
    expect(repaired.code, repaired.stderr).toBe(0);
    const report = JSON.parse(repaired.stdout) as {
      outcomes: Array<{ tag: string; outcome: string; verified?: boolean }>;
      moved_tags: string[];
      remaining: number;
    };
    const moved = ["1", "1.0", "1.0.0", "1.1", "1.2", "1.2.0", "1.3", "1.3.0", "2", "latest"];
    expect(report.outcomes.map((o) => [o.tag, o.outcome, o.verified])).toEqual(
      moved.map((tag) => [tag, "written", true]),
    );
    expect(report.remaining).toBe(0);
    expect(await readFile(tagsFile, "utf8")).toBe(moved.map((t) => `${t}\n`).join(""));

    const after = await check([ref]);
    expect(after.code).toBe(0);
    expect(after.reports[0]).toMatchObject({ clean: true, findings: 0 });
    const ofVersion = async (tag: string) => (await entriesOf(target, tag)).map((e) => e.digest);
    expect(await ofVersion("latest")).toEqual(await ofVersion("2.0.0_20250501000000"));
    expect(await ofVersion("1")).toEqual(await ofVersion("1.3.0_20250401000000"));
    const v120 = [...(await ofVersion("1.2.0_20250301000000")), ...(await ofVersion("1.2.0_20250302000000"))];
    expect(await ofVersion("1.2")).toEqual(v120);

    // nothing left: a second repair writes nothing and leaves an empty tags file
    const again = await runPkg(["package", "cascade", "repair", "--announce-tags", tagsFile, ref]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("nothing to repair");
    expect(await readFile(tagsFile, "utf8")).toBe("");
  });

  it("unrepairable findings are refused with their reason and stay (exit 65); a clean repository checks with exit 0", async () => {
    const target = repo("acme/unrepairable");
    const both = ["linux/amd64"];
    const entries = await publish(target, "1.0.0_20250101000000", both, true);
    await writeIndex(target, entries, "3.0");
    const clean = repo("acme/clean");
    await publish(clean, "1.0.0_20250101000000", both, true);

    const both2 = await check([`${registry.host}/acme/unrepairable`, `${registry.host}/acme/clean`]);
    expect(both2.code).toBe(65);
    expect(both2.reports.map((r) => [r.repository, r.findings, r.unrepairable])).toEqual([
      [`${registry.host}/acme/unrepairable`, 1, 1],
      [`${registry.host}/acme/clean`, 0, 0],
    ]);
    expect(both2.reports[0]?.rows.find((r) => r.tag === "3.0")).toMatchObject({
      status: "orphan",
      unrepairable: { reason: "would-empty-index" },
    });

    const repair = await runPkg(["package", "cascade", "repair", `${registry.host}/acme/unrepairable`]);
    expect(repair.code).toBe(65);
    expect(repair.stdout).toMatch(/^3\.0 +refused \(would-empty-index\)$/m);
    expect(repair.stderr).toContain("1 rolling tag left wrong");
    expect((await check([`${registry.host}/acme/clean`])).code).toBe(0);

    const missing = await runPkg(["package", "cascade", "check", `${registry.host}/acme/nothing-here`]);
    expect(missing.code).toBe(65);
    expect(missing.stderr).toContain("no such repository");
    const tagged = await runPkg(["package", "cascade", "check", `${registry.host}/acme/clean:latest`]);
    expect(tagged.code).toBe(64);
  });

  it("--exclude-version leaves a partial version out of the fold: check is clean, repair re-points an alias holding it", async () => {
    const target = repo("acme/partial");
    const ref = `${registry.host}/acme/partial`;
    await publish(target, "1.0.0_20250101000000", ["linux/amd64", "linux/arm64"], true);
    // 1.1.0 failed on arm64: published under its primary tag only, as a pipeline push leaves it
    const [v110amd64] = await publish(target, "1.1.0_20250201000000", ["linux/amd64"], false);
    const v100 = await entriesOf(target, "1.0.0_20250101000000");

    // without being told, the fold reads 1.1.0 as a whole version whose run was killed
    const plain = await check([ref]);
    expect(plain.code).toBe(65);
    expect(statusesOf(plain.reports[0] as CascadeCheckReport)).toMatchObject({
      "1.1.0": "missing",
      "1.1": "missing",
      "1": "stale",
      latest: "stale",
    });
    const held = await check(["--exclude-version", "1.1.0", ref]);
    expect(held.code).toBe(0);
    expect(held.reports[0]).toMatchObject({ clean: true, held_out: ["1.1.0"], leaves: 2 });
    const text = await runPkg(["package", "cascade", "check", "--exclude-version", "1.1.0", ref]);
    expect(text.stdout).toContain(
      `${ref}: 2 leaf versions (1.1.0 held out as incomplete), 4 rolling tags: clean`,
    );

    // latest given the partial version's manifest by hand: stale, and rebuilt without it
    await writeIndex(target, [v110amd64 as Descriptor, ...v100.slice(1)], "latest");
    const repaired = await runPkg([
      "package",
      "cascade",
      "repair",
      "--exclude-version",
      "1.1.0_20250201000000",
      ref,
      "--format",
      "json",
    ]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect((JSON.parse(repaired.stdout) as { moved_tags: string[] }).moved_tags).toEqual(["latest"]);
    expect((await entriesOf(target, "latest")).map((e) => e.digest)).toEqual(v100.map((e) => e.digest));
    expect(Object.keys(await digests(target))).toEqual([
      "1",
      "1.0",
      "1.0.0",
      "1.0.0_20250101000000",
      "1.1.0_20250201000000",
      "latest",
    ]);
    expect((await check(["--exclude-version", "1.1.0", ref])).code).toBe(0);

    // text naming no version is a usage error; a version the repository lacks is only warned of
    const bad = await runPkg(["package", "cascade", "check", "--exclude-version", "latest", ref]);
    expect(bad.code).toBe(64);
    const unknown = await runPkg(["package", "cascade", "check", "--exclude-version", "9.9.9", ref]);
    expect(unknown.code).toBe(65);
    expect(unknown.stderr).toContain("--exclude-version 9.9.9: no such version; nothing held out for it");
  });

  it("tells beforeWrites, once and before the first write, every tag it is about to write; a dry run never", async () => {
    const target = repo("acme/told");
    await publish(target, "1.0.0_20250101000000", ["linux/amd64"], true);
    await publish(target, "1.1.0_20250201000000", ["linux/amd64"], false);
    const before = await digests(target);
    const told: Array<{ tags: string[]; unchanged: boolean }> = [];
    const beforeWrites = async (tags: string[]) => {
      told.push({ tags, unchanged: JSON.stringify(await digests(target)) === JSON.stringify(before) });
    };
    await repairCascade(target, { dryRun: true, beforeWrites });
    expect(told).toEqual([]);
    const report = await repairCascade(target, { beforeWrites });
    const written = report.outcomes.filter((o) => o.outcome === "written").map((o) => o.tag);
    expect(written).toEqual(["1", "1.1", "1.1.0", "latest"]);
    expect(told).toEqual([{ tags: written, unchanged: true }]);
    // nothing left to write: not told
    await repairCascade(target, { beforeWrites });
    expect(told).toHaveLength(1);
  });

  it("raced: a tag another writer moves between the check's read and the write is not written", async () => {
    const target = repo("acme/raced");
    await publish(target, "1.0.0_20250101000000", ["linux/amd64"], true);
    await publish(target, "1.1.0_20250201000000", ["linux/amd64"], false);
    const foreign = canonicalJson({ schemaVersion: 2, mediaType: MediaType.ImageIndex, manifests: [] });
    let reads = 0;
    // another writer re-points latest right after the check has read it
    const racing: Target = {
      displayName: target.displayName,
      repository: target.repository,
      blobSize: (d, o) => target.blobSize(d, o),
      fetchBlob: (d, s, o) => target.fetchBlob(d, s, o),
      listTags: (o) => target.listTags(o),
      referrers: (d, a, o) => target.referrers(d, a, o),
      pushBlob: (s, o) => target.pushBlob(s, o),
      pushManifest: (b, m, t, o) => target.pushManifest(b, m, t, o),
      deleteManifest: (d, o) => target.deleteManifest(d, o),
      untag: (t, o) => target.untag(t, o),
      fetchManifest: async (reference, o) => {
        if (reference === "latest" && ++reads === 2)
          await target.pushManifest(foreign, MediaType.ImageIndex, "latest");
        return target.fetchManifest(reference, o);
      },
    };
    const report = await repairCascade(racing);
    expect(report.outcomes.find((o) => o.tag === "latest")).toMatchObject({
      outcome: "raced",
      wrote: false,
      live: (await target.fetchManifest("latest"))?.descriptor.digest,
    });
    expect(report.outcomes.filter((o) => o.outcome === "written").map((o) => o.tag)).toEqual([
      "1",
      "1.1",
      "1.1.0",
    ]);
    expect(report.remaining).toBe(1);
  });
});

describe("pkg package cascade on an OCI image layout", () => {
  it("check and repair a layout repository with --layout", async () => {
    const layout = join(work.path, "layout");
    const target = openLayout(layout, "acme/tool");
    await publish(target, "1.0.0_20250101000000", ["linux/amd64"], true);
    await publish(target, "1.1.0_20250201000000", ["linux/amd64"], false);
    const run = (verb: string) =>
      runPkg(["package", "cascade", verb, "--layout", layout, "acme/tool", "--format", "json"]);
    const before = await run("check");
    expect(before.code).toBe(65);
    expect(statusesOf((JSON.parse(before.stdout) as CascadeCheckReport[])[0] as CascadeCheckReport)).toEqual({
      "1": "stale",
      "1.0": "ok",
      "1.0.0": "ok",
      "1.1": "missing",
      "1.1.0": "missing",
      latest: "stale",
    });
    expect((await run("repair")).code).toBe(0);
    expect((await run("check")).code).toBe(0);
  });
});
