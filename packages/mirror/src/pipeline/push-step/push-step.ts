import { writeFile } from "node:fs/promises";
import { type Logger, writeAtomically } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { Target } from "@pkg/oci";
import type { RunnableSpec } from "../../plan/plan-run.js";
import { readIndexPlatforms } from "../../plan/published.js";
import { compareVersionTexts } from "../../plan/version-order.js";
import { observeIndexes } from "../../publish/index-observer.js";
import { updatePublishedSummary } from "../../publish/published-summary.js";
import type { RunSigner } from "../../publish/sign-published.js";
import { DEFAULT_WHEEL_SCOPE } from "../../spec/defaults.js";
import { runAnnounce } from "../announce.js";
import type { PlanDocument, PlanLeg, PlanVersion } from "../documents/plan-document.js";
import type { PreparedVersion } from "../documents/prepared-version.js";
import type { RunSummary, RunVersion } from "../documents/run-summary.js";
import { decideVersion, type VersionDecision } from "./decide.js";
import { type PublishedDecision, publishDecided } from "./publish-decided.js";
import { readPreparedVersions } from "./read-prepared.js";
import {
  announceTags,
  ciLinks,
  runAnnounceRow,
  runSummary,
  type SummaryHead,
  versionRow,
} from "./summary.js";
import { wheelRegistration } from "./wheel-layers.js";

export interface PushStepOptions {
  spec: RunnableSpec;
  /** Where prepare put the bundles and their `prepared-<tag>.json`. */
  bundlesDir: string;
  /** Where the test legs put their JUnit files. */
  junitDir: string;
  /** run-summary.json, written before the announce and again after it. */
  summaryPath: string;
  /** The test legs that gate each platform (the spec's, as the plan renders them). */
  legs: Record<string, PlanLeg>;
  /** The plan: a version it lists that prepare never reported has every platform `missing_bundle`. */
  plan?: PlanDocument;
  target: Target;
  env: NodeJS.ProcessEnv;
  http: HttpClient;
  log: Logger;
  /** Aborted on SIGINT/SIGTERM: the version being pushed is finished, no other starts. */
  signal?: AbortSignal;
  sleep?: (ms: number) => Promise<void>;
  /** Signs what is published; resolved from the spec's `sign` before anything is pushed. */
  signer?: RunSigner;
  /** Another repository of the target's registry (or layout): where shared wheel layers go. */
  openRepository: (repository: string) => Target;
}

const byVersion = (a: PlanVersion, b: PlanVersion) => compareVersionTexts(a.source_version, b.source_version);

/** The versions to push, oldest first, each with what prepare reported of it (if anything). */
function versionsToPush(
  prepared: readonly PreparedVersion[],
  plan: PlanDocument | undefined,
  log: Logger,
): Array<{ entry: PlanVersion; prepared?: PreparedVersion }> {
  const byTag = new Map(prepared.map((p) => [p.plan.version, p]));
  if (plan === undefined)
    return [...prepared]
      .sort((a, b) => byVersion(a.plan, b.plan))
      .map((p) => ({ entry: p.plan, prepared: p }));
  const planned = plan.versions.filter((v) => v.kind !== "metadata-drift");
  for (const tag of byTag.keys())
    if (!planned.some((v) => v.version === tag))
      log.warn(`prepared-${tag}.json is not in the plan: not pushed`);
  return planned.map((entry) => {
    const found = byTag.get(entry.version);
    return found === undefined ? { entry } : { entry, prepared: found };
  });
}

/** The platforms each version's primary tag holds already (an earlier attempt of this push). */
async function existingPlatforms(target: Target, tags: readonly string[]): Promise<Map<string, Set<string>>> {
  const listed = new Set(await target.listTags());
  const held = new Map<string, Set<string>>();
  for (const tag of tags) {
    if (listed.has(tag)) held.set(tag, new Set(await readIndexPlatforms(target, tag)));
  }
  return held;
}

const untouched = (): PublishedDecision => ({
  pushed: [],
  existing: [],
  pushFailures: [],
  tagsWritten: [],
  layerReuse: { mounted: 0, uploaded: 0, verified: 0 },
});

/** A version the run stopped before: its green platforms are reported as not pushed. */
function stopped(decision: VersionDecision, why: string): PublishedDecision {
  return {
    ...untouched(),
    pushFailures: decision.pairs.flatMap((p) => (p.green ? [{ platform: p.platform, message: why }] : [])),
  };
}

async function writeSummary(path: string, summary: RunSummary): Promise<void> {
  await writeAtomically(path, "run summary", (temp) =>
    writeFile(temp, `${JSON.stringify(summary, null, 2)}\n`),
  );
}

/**
 * `pipeline push`: decides every (version, platform) before pushing anything (see
 * `decideVersion`), then pushes the greens version by version, oldest first, through the retrying
 * publisher; then updates the published summary, writes run-summary.json, and makes the run's one
 * announce over the union of tags written (the summary says `interrupted` while it runs).
 */
export async function pushStep(options: PushStepOptions): Promise<RunSummary> {
  const { spec, log } = options;
  const prepared = await readPreparedVersions(options.bundlesDir);
  const toPush = versionsToPush(prepared, options.plan, log);
  const decisions: VersionDecision[] = [];
  for (const { entry, prepared: found } of toPush) decisions.push(await decideVersion(entry, found, options));
  for (const d of decisions) {
    const reds = d.pairs.filter((p) => !p.green);
    const greens = d.pairs.length - reds.length;
    log.info(
      `${d.entry.version}: ${greens} green${reds.length > 0 ? `, red: ${reds.map((p) => (p.green ? "" : `${p.platform} (${p.failure.reason})`)).join(", ")}` : ""}`,
    );
  }

  const observer = observeIndexes(options.target);
  const existing = decisions.some((d) => d.pairs.some((p) => p.green))
    ? await existingPlatforms(
        observer.target,
        decisions.map((d) => d.entry.version),
      )
    : new Map<string, Set<string>>();
  const wheels = wheelRegistration(spec.wheel_scope ?? DEFAULT_WHEEL_SCOPE, options.openRepository, log);
  const rows: RunVersion[] = [];
  for (const decision of decisions) {
    const published = options.signal?.aborted
      ? stopped(decision, `not pushed: interrupted by ${String(options.signal.reason)}`)
      : await publishDecided(decision, {
          target: observer.target,
          spec,
          env: options.env,
          log,
          existing: existing.get(decision.entry.version) ?? new Set(),
          wheels,
          ...(options.sleep === undefined ? {} : { sleep: options.sleep }),
          ...(options.signer === undefined ? {} : { signer: options.signer }),
        });
    rows.push(versionRow(decision, published));
  }
  await updatePublishedSummary(options.target, observer, log);

  const head: SummaryHead = {
    mirror: spec.name,
    target: options.target.displayName,
    ...ciLinks(options.env),
  };
  if (spec.announce === undefined) {
    const summary = runSummary(head, rows);
    await writeSummary(options.summaryPath, summary);
    return summary;
  }
  // a run killed during the announce leaves this record: the index state is unknown
  await writeSummary(
    options.summaryPath,
    runSummary(head, rows, { package: spec.announce.package, status: "interrupted" }),
  );
  const outcome = await runAnnounce(spec, {
    tags: { kind: "tags", tags: announceTags(rows) },
    source: options.target,
    env: options.env,
    http: options.http,
    log,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const summary = runSummary(head, rows, outcome === undefined ? undefined : runAnnounceRow(outcome));
  await writeSummary(options.summaryPath, summary);
  return summary;
}
