import { describeError, isPkgError, type Logger } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { TargetReader } from "@pkg/oci";
import {
  type AnnounceDestination,
  type AnnounceRequest,
  announce,
  announceCredentialFound,
  apiBaseUrl,
  createForgeDestination,
  type ForgeTarget,
  LocalDirectoryDestination,
  matchForgeCoordinate,
  repositoryUri,
} from "@pkg/package/announce";
import type { AnnounceSpec } from "../spec/announce.js";
import { DEFAULT_INDEX_REPO } from "../spec/forge-coordinate.js";
import type { TargetSpec } from "../spec/target.js";

/** `announce.status` of run-summary.json (the spec's table). */
export type AnnounceStatus =
  | "announced"
  | "nothing_to_announce"
  | "skipped_no_credential"
  | "failed"
  | "interrupted";

/** What one announce of a mirror came to: run-summary.json's `announce`, and the catch-up's report. */
export interface AnnounceOutcome {
  /** The index package, `<namespace>/<package>`. */
  package: string;
  status: AnnounceStatus;
  /** Where it went: `forge host/ns/project`, or the local index directory. */
  destination: string;
  /** announced: the tags the index gains or sees move (in a dry run: would). */
  tags?: string[];
  /** failed: the one-line error. */
  error?: string;
  /** failed: a stable detail when there is one (`forge_publisher_not_allowlisted`, `forge_capability_unavailable`). */
  detail?: string;
  /** The pull or merge request opened or updated. */
  request_url?: string;
  /** The call's own answer: whether the index entry changes (a dry run's answer). */
  change?: "updated" | "unchanged";
  /** The announce computed the change and wrote, pushed and opened nothing. */
  dry_run?: true;
  /** Reserved tags the repository held and the index never lists. */
  reserved_tags_dropped?: string[];
}

/** The tags to announce: these (the push step's tags written), or every tag the target holds (the catch-up). */
export type AnnounceTags = { kind: "tags"; tags: readonly string[] } | { kind: "every" };

export interface RunAnnounceOptions {
  tags: AnnounceTags;
  /** The target repository, open (registry or layout): its tags and description are read here. */
  source: TargetReader;
  /** Credentials: PKG_ANNOUNCE_TOKEN (api), the git transport's ladder, extra CAs. */
  env: NodeJS.ProcessEnv;
  /** The API transport's HTTP client. */
  http: HttpClient;
  log: Logger;
  /** Computes the change against the committed index entry; opens nothing. */
  dryRun?: boolean;
  /** Aborting it stops the announce; the outcome is then `interrupted`. */
  signal?: AbortSignal;
  /** A local index directory instead of the spec's index repository (previews and demos; no credential). */
  out?: string;
  /** For a package the index does not hold yet: the index's own name, and the package's owners. */
  label?: string;
  owners?: AnnounceRequest["owners"];
  now?: Date;
}

/** The forge repository the spec's `announce` block names, as the forge destinations take it. */
export function announceForgeTarget(block: AnnounceSpec): ForgeTarget {
  let indexRepo = block.index_repo;
  if (indexRepo === undefined) {
    const parsed = matchForgeCoordinate(DEFAULT_INDEX_REPO);
    if (typeof parsed === "string") throw new Error(`DEFAULT_INDEX_REPO ${parsed}`);
    indexRepo = parsed;
  }
  return {
    forge: block.forge,
    transport: block.transport,
    indexRepo,
    ...(block.fork ? { fork: block.fork } : {}),
    apiBase: apiBaseUrl(block.forge, indexRepo.host),
  };
}

function forgeName(target: ForgeTarget): string {
  const { host, namespace, project } = target.indexRepo;
  return `${target.forge} ${host}/${namespace}/${project}`;
}

/**
 * Announces a mirror's tags to its index, in process, and says how it went, as the spec's
 * `announce.status` table does. Undefined when the spec has no `announce` block. The tags are
 * added to the committed entry (never replacing it: committed tags and yank markers stay).
 * `nothing_to_announce`: no tag to carry, or the index holds them all already;
 * `skipped_no_credential`: no PKG_ANNOUNCE_TOKEN (api transport) or no credential on the git
 * transport's ladder; `failed`: the call failed (the error, and its detail: a publisher not on the
 * allowlist, exit 77, or a capability the forge lacks, exit 82); `interrupted`: `signal` aborted.
 */
export async function runAnnounce(
  spec: { announce?: AnnounceSpec | undefined; target: TargetSpec },
  options: RunAnnounceOptions,
): Promise<AnnounceOutcome | undefined> {
  const block = spec.announce;
  if (block === undefined) return undefined;
  const { env, log, signal } = options;
  const forge = options.out === undefined ? announceForgeTarget(block) : undefined;
  const base = {
    package: block.package,
    destination: forge ? forgeName(forge) : (options.out ?? ""),
  };
  if (signal?.aborted) return { ...base, status: "interrupted" };
  if (options.tags.kind === "tags" && options.tags.tags.length === 0) {
    return { ...base, status: "nothing_to_announce" };
  }
  try {
    let destination: AnnounceDestination;
    if (forge) {
      if (!(await announceCredentialFound(forge, env))) return { ...base, status: "skipped_no_credential" };
      destination = createForgeDestination({
        target: forge,
        pkg: block.package,
        env,
        http: options.http,
        log,
      });
    } else {
      destination = new LocalDirectoryDestination(options.out ?? "");
    }
    const report = await announce(
      {
        package: block.package,
        mode:
          options.tags.kind === "every"
            ? { kind: "from-registry" }
            : { kind: "add", tags: [...new Set(options.tags.tags)] },
        repository: repositoryUri(`${spec.target.registry}/${spec.target.repository}`),
        source: options.source,
        ...(options.label === undefined ? {} : { label: options.label }),
        ...(options.owners === undefined ? {} : { owners: options.owners }),
        ...(options.now === undefined ? {} : { now: options.now }),
        ...(options.dryRun ? { dryRun: true } : {}),
        ...(signal ? { signal } : {}),
      },
      destination,
    );
    return {
      ...base,
      status: report.status === "updated" ? "announced" : "nothing_to_announce",
      ...(report.status === "updated" ? { tags: report.changedTags } : {}),
      ...(report.requestUrl === null ? {} : { request_url: report.requestUrl }),
      change: report.status,
      ...(options.dryRun ? { dry_run: true as const } : {}),
      ...(report.reservedTagsDropped.length > 0 ? { reserved_tags_dropped: report.reservedTagsDropped } : {}),
    };
  } catch (error) {
    if (signal?.aborted) return { ...base, status: "interrupted" };
    // the forge's refusals carry their detail: 77 forge_publisher_not_allowlisted, 82 forge_capability_unavailable
    const detail = isPkgError(error) ? error.detail : undefined;
    return {
      ...base,
      status: "failed",
      error: describeError(error).line,
      ...(detail === undefined ? {} : { detail }),
    };
  }
}

/** One line saying how an announce went, for logs and notices. */
export function describeAnnounce(outcome: AnnounceOutcome, block: AnnounceSpec | undefined): string {
  const { package: pkg, destination } = outcome;
  const would = outcome.dry_run ? "dry run: " : "";
  switch (outcome.status) {
    case "announced": {
      const tags = outcome.tags?.length ? `tags ${outcome.tags.join(", ")}` : "the description";
      const request = outcome.request_url ? `: ${outcome.request_url}` : "";
      return outcome.dry_run
        ? `${would}updated: ${pkg} in ${destination} would gain or move ${tags} (nothing written or opened)`
        : `announced ${pkg} to ${destination} (${tags})${request}`;
    }
    case "nothing_to_announce":
      return outcome.change === undefined
        ? `nothing to announce for ${pkg}: no tag was written`
        : `${would}unchanged: ${destination} holds every tag of ${pkg} already${outcome.request_url ? ` (open request ${outcome.request_url})` : ""}`;
    case "skipped_no_credential": {
      const wanted =
        block?.transport === "git"
          ? "no credential for the git transport (PKG_ANNOUNCE_GIT_TOKEN, PKG_AUTH_<HOST>_* or netrc, or the CI job's token on the index host)"
          : "no PKG_ANNOUNCE_TOKEN";
      return `index announce skipped: ${wanted}; ${destination} does not know about ${pkg}'s tags from this run`;
    }
    case "failed":
      return `index announce of ${pkg} to ${destination} failed: ${outcome.error ?? "unknown error"}${outcome.detail ? ` (${outcome.detail})` : ""}`;
    case "interrupted":
      return `index announce of ${pkg} to ${destination} interrupted: the index may not know about this run`;
  }
}
