import { describeError, ExitCode, type Logger, PkgError } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import {
  type Descriptor,
  MediaType,
  memoryBlob,
  parseManifestDocument,
  readOnly,
  type Target,
} from "@pkg/oci";
import { type Metadata, parsePlatformKey, rollingTags, serializeMetadata } from "@pkg/package";
import { repointIndexEntry } from "@pkg/package/cascade";
import { canonicalJson } from "@pkg/package/push";
import type { RunnableSpec } from "../../plan/plan-run.js";
import { assetSets } from "../../plan/resolve-assets.js";
import {
  type Deadline,
  PUSH_ATTEMPT_TIMEOUT_MS,
  withAttemptDeadline,
} from "../../publish/attempt-deadline.js";
import { observeIndexes } from "../../publish/index-observer.js";
import { updatePublishedSummary, withdrawFromSummary } from "../../publish/published-summary.js";
import { type AnnounceOutcome, runAnnounce } from "../announce.js";
import { expectedMetadata } from "../plan/drift-scan.js";
import { adoptPublished, dependencyRefusals, metadataDrift } from "../plan/metadata-compare.js";
import { publishedMetadataReader } from "../plan/published-metadata.js";
import { type PatchSelection, selectLeaves } from "./select.js";

/**
 * One (version, platform) of a patch:
 * - `patched`: the manifest was re-pushed with the spec's metadata and the version's tags re-pointed;
 * - `current`: the published metadata is what the spec gives (nothing written);
 * - `refused`: the change needs a build (a dependency added or its tag moved): `reason` says what to do;
 * - `failed`: the republish failed (one attempt, 3600 s bound, never retried).
 */
export interface PatchTile {
  version: string;
  variant?: string;
  platform: string;
  status: "patched" | "current" | "refused" | "failed";
  /** The metadata fields that differ (patched, refused, failed). */
  fields?: string[];
  reason?: string;
  error?: { exit_code: ExitCode; message: string };
  /** patched: the manifest replaced and its replacement. */
  manifest?: { from: string; to: string };
  /** patched: the tags re-pointed. */
  tags?: string[];
}

export interface PatchReport {
  target: string;
  tiles: PatchTile[];
  /** Published platforms the spec no longer lists: left alone. */
  skipped: Array<{ version: string; variant?: string; platform: string }>;
  /** Every tag re-pointed, deduplicated: what the announce carries. */
  tags_repointed: string[];
  counts: Record<PatchTile["status"], number>;
  announce?: AnnounceOutcome;
}

export interface PatchOptions {
  spec: RunnableSpec;
  specDir: string;
  target: Target;
  selection: PatchSelection;
  env: NodeJS.ProcessEnv;
  http: HttpClient;
  log: Logger;
  /** The timer bounding each republish (3600 s); injected by tests. */
  deadline?: Deadline;
}

const REMEDY =
  "pipeline patch downloads nothing and cannot pin a dependency tag: delete the version's tags and mirror it again";

/**
 * `pipeline patch --metadata-only`: for each published leaf version the selection names and each
 * of its platforms the spec still lists, compares the published metadata with what the spec gives
 * now (`metadataDrift`, the comparison `pipeline plan` reports drift with) and, where it differs,
 * pushes the spec's metadata (with the published `binaries` a scan filled and the published
 * dependency pins adopted) as a new config blob, the platform manifest again with that config and
 * the published layers (no layer is uploaded or downloaded), and re-points every tag of the version
 * (its build tags, its exact and rolling tags) that held the old manifest. Each platform is one
 * attempt within the 3600 s bound, never retried. Afterwards the published summary is updated and,
 * with an `announce` block, the re-pointed tags are announced.
 */
export async function patchVersions(options: PatchOptions): Promise<PatchReport> {
  const { spec, log } = options;
  if (spec.source.type === "pylock" || spec.source.type === "pypi") {
    throw new PkgError(
      ExitCode.Usage,
      `a ${spec.source.type} source composes its metadata when it builds: there is no metadata file to patch; mirror the version again`,
    );
  }
  const observer = observeIndexes(options.target);
  const target = observer.target;
  const tags = await target.listTags();
  const sets = assetSets(spec);
  const leaves = selectLeaves(
    tags,
    sets.map((s) => s.variant),
    options.selection,
  );
  if (leaves.length === 0) log.info(`${target.displayName}: no published version to patch`);
  const reader = publishedMetadataReader(readOnly(target));
  const expected = expectedMetadata(spec, options.specDir);
  const listed = new Set(tags);
  /** In the report's order: tiles decided by reading, and the republishes they wait for. */
  const planned: Array<PatchTile | Republish> = [];
  const skipped: PatchReport["skipped"] = [];
  for (const leaf of leaves) {
    const set = sets.find((s) => s.variant === leaf.variant);
    const platforms = new Set(Object.keys(set?.assets ?? {}).map((p) => parsePlatformKey(p).key));
    const scope = leaf.variant === undefined ? {} : { variant: leaf.variant };
    for (const [platform, manifest] of await reader.manifests(leaf.tags)) {
      if (!platforms.has(platform)) {
        skipped.push({ version: leaf.version, ...scope, platform });
        log.info(`${leaf.version} ${platform}: no longer in the spec; left alone`);
        continue;
      }
      const base = { version: leaf.version, ...scope, platform };
      const want = await expected({ ...scope }, platform);
      const config = await reader.config(manifest);
      if (config.digest === want.digest) {
        planned.push({ ...base, status: "current" });
        continue;
      }
      const published = await reader.metadata(config);
      const fields = metadataDrift(want.metadata, published, want.binScan);
      if (fields.length === 0) {
        planned.push({ ...base, status: "current" });
        continue;
      }
      const refusals = fields.includes("dependencies") ? dependencyRefusals(want.metadata, published) : [];
      if (refusals.length > 0) {
        const reason = `the spec ${refusals.join(" and ")}: ${REMEDY}`;
        log.warn(`${leaf.version} ${platform}: not patched: ${reason}`);
        planned.push({ ...base, status: "refused", fields, reason });
        continue;
      }
      planned.push({
        republish: true,
        tile: { ...base, fields },
        manifest,
        metadata: adoptPublished(want.metadata, published, want.binScan),
        candidates: [...leaf.tags, ...rollingTags(leaf.parsed, leaf.variant)].filter((t) => listed.has(t)),
      });
    }
  }
  // the tags about to be re-pointed leave the published summary first: should its update after
  // fail, a plan reads their indexes instead of trusting the configs they held before
  const moving = planned.flatMap((entry) => ("republish" in entry ? entry.candidates : []));
  if (moving.length > 0) await withdrawFromSummary(options.target, moving, log);
  const tiles: PatchTile[] = [];
  for (const entry of planned) {
    if (!("republish" in entry)) {
      tiles.push(entry);
      continue;
    }
    const { tile, manifest, metadata, candidates } = entry;
    const done: PatchTile = {
      ...tile,
      ...(await republish(target, manifest, metadata, candidates, options)),
    };
    tiles.push(done);
    log.info(
      done.status === "patched"
        ? `${tile.version} ${tile.platform}: patched ${tile.fields?.join(", ")}; re-pointed ${done.tags?.join(", ")}`
        : `${tile.version} ${tile.platform}: patch failed: ${done.error?.message ?? ""}`,
    );
  }
  const repointed = [...new Set(tiles.flatMap((t) => t.tags ?? []))];
  // also when nothing moved: the indexes and configs read set right a summary an earlier failed write left behind
  await updatePublishedSummary(options.target, observer, log);
  const counts = { patched: 0, current: 0, refused: 0, failed: 0 };
  for (const tile of tiles) counts[tile.status]++;
  const report: PatchReport = {
    target: target.displayName,
    tiles,
    skipped,
    tags_repointed: repointed,
    counts,
  };
  if (repointed.length > 0) {
    const outcome = await runAnnounce(spec, {
      tags: { kind: "tags", tags: repointed },
      source: options.target,
      env: options.env,
      http: options.http,
      log,
    });
    if (outcome) report.announce = outcome;
  }
  return report;
}

/** A platform whose metadata drifted, to republish once every platform was read. */
interface Republish {
  republish: true;
  tile: Omit<PatchTile, "status">;
  manifest: Descriptor;
  metadata: Metadata;
  /** The version's listed tags that may hold the manifest. */
  candidates: string[];
}

/** One platform's republish: config, manifest, then the tags; one attempt within the bound. */
async function republish(
  target: Target,
  manifest: Descriptor,
  metadata: Metadata,
  candidates: readonly string[],
  options: PatchOptions,
): Promise<Pick<PatchTile, "status" | "error" | "manifest" | "tags">> {
  try {
    return await withAttemptDeadline(
      target,
      PUSH_ATTEMPT_TIMEOUT_MS,
      async (attempt) => {
        const config = memoryBlob(serializeMetadata(metadata));
        await attempt.pushBlob(config);
        const what = `${attempt.displayName}@${manifest.digest}`;
        const stored = await attempt.fetchManifest(manifest.digest);
        if (!stored)
          throw new PkgError(ExitCode.Data, `${what}: an index lists it but the repository lacks it`);
        const doc = parseManifestDocument(stored.bytes, what);
        if (doc.kind !== "manifest") throw new PkgError(ExitCode.Data, `${what} is not a package manifest`);
        const next = {
          ...doc.manifest,
          config: { ...doc.manifest.config, digest: config.digest, size: config.size },
        };
        const pushed = await attempt.pushManifest(canonicalJson(next), MediaType.ImageManifest);
        const tags: string[] = [];
        for (const tag of candidates) {
          if ((await repointIndexEntry(attempt, tag, manifest.digest, pushed)) !== undefined) tags.push(tag);
        }
        return { status: "patched" as const, manifest: { from: manifest.digest, to: pushed.digest }, tags };
      },
      options.deadline,
    );
  } catch (error) {
    const { exitCode, line } = describeError(error);
    return { status: "failed", error: { exit_code: exitCode, message: line } };
  }
}
