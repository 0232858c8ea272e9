import { ExitCode, type Logger, PkgError } from "@pkg/common";
import { SPEC_BACKOFF, withRetries } from "@pkg/net";
import type { AnnounceDestination, PublishResult, Regenerate } from "../destination.js";
import { announceBranch, commitBase, isLive, requestBody } from "./branch.js";
import type { FileWrite, ForgeApi, RequestRef, Snapshot } from "./forge-api.js";

/** Retries after a lost race: each one re-reads the branch and regenerates the change. */
export const RACE_RETRIES = 3;

/** Thrown inside an attempt when another writer moved the branch first. */
class RaceLost extends Error {}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}

/** The files that differ from the snapshot the change was computed from, with whether each exists there. */
async function changedFiles(files: Map<string, Uint8Array>, snapshot: Snapshot, signal?: AbortSignal) {
  const changed: FileWrite[] = [];
  for (const [path, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const current = await snapshot.read(path, signal);
    if (current !== undefined && sameBytes(current, content)) continue;
    changed.push({ path, content, exists: current !== undefined });
  }
  return changed;
}

export interface ApiDestinationOptions {
  api: ForgeApi;
  /** `forge host/ns/project`, for messages. */
  name: string;
  /** `<namespace>/<package>`: names the branch. */
  pkg: string;
  log: Logger;
  raceRetries?: number;
}

/**
 * The API transport: one long-lived branch per package, one commit per announce, an open request
 * reused and never duplicated. Each attempt reads the branch state, reads the index files where
 * the next commit is based (the live branch head, or the upstream default branch for a new or
 * spent branch), regenerates the change against them and writes it with the forge's
 * compare-and-swap; a lost race re-reads, regenerates and tries again, so two announces racing on
 * one package both land. Exit 75 when the race is lost on every try.
 */
export class ApiDestination implements AnnounceDestination {
  readonly name: string;
  readonly writesCatalogIndex = false;
  readonly #options: ApiDestinationOptions;

  constructor(options: ApiDestinationOptions) {
    this.#options = options;
    this.name = options.name;
  }

  async publish(regenerate: Regenerate, message: string, signal?: AbortSignal): Promise<PublishResult> {
    const { api, pkg, log } = this.#options;
    const branch = announceBranch(pkg);
    await api.prepare(signal);
    const attempt = async (): Promise<PublishResult> => {
      const state = await api.branchState(branch, signal);
      const live = isLive(state);
      const base = commitBase(state);
      const snapshot =
        base.kind === "append" ? api.snapshot("head", base.head) : api.snapshot("upstream", base.mainHead);
      const change = await regenerate((path) => snapshot.read(path, signal));
      const files = change.status === "unchanged" ? [] : await changedFiles(change.files, snapshot, signal);
      let request: RequestRef | undefined = state.open;
      if (files.length === 0) {
        // earlier unmerged commits on the branch still deserve a request
        if (!request && live) request = await api.openRequest(branch, message, requestBody(pkg), signal);
        return result("unchanged", request);
      }
      const outcome = await api.commit({ branch, message, files, base, snapshot }, signal);
      if (!outcome.written) throw new RaceLost(outcome.reason);
      log.info(`${this.name}: committed ${files.length} file(s) to ${branch} (${outcome.sha.slice(0, 12)})`);
      request ??= await api.openRequest(branch, message, requestBody(pkg), signal);
      return result("updated", request);
    };
    const retries = this.#options.raceRetries ?? RACE_RETRIES;
    try {
      return await withRetries({ ...SPEC_BACKOFF, retries }, attempt, {
        isRetryable: (error) => error instanceof RaceLost,
        onRetry: (event) => {
          const reason = "error" in event.failure ? (event.failure.error as Error).message : "";
          log.info(
            `${this.name}: another announce moved ${branch} first (${reason}); reading again, try ${event.attempt + 1} of ${event.total}`,
          );
        },
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (error instanceof RaceLost) {
        throw new PkgError(
          ExitCode.Transient,
          `${this.name}: another announce moved ${branch} first on every one of ${retries + 1} tries`,
        );
      }
      throw error;
    }
  }

  async preview(regenerate: Regenerate, signal?: AbortSignal): Promise<"updated" | "unchanged"> {
    const snapshot = await this.#options.api.committed(signal);
    const change = await regenerate((path) => snapshot.read(path, signal));
    if (change.status === "unchanged") return "unchanged";
    return (await changedFiles(change.files, snapshot, signal)).length === 0 ? "unchanged" : "updated";
  }
}

function result(status: "updated" | "unchanged", request: RequestRef | undefined): PublishResult {
  return {
    status,
    requestUrl: request?.url ?? null,
    requestNumber: request?.number ?? null,
    // written_paths reports a local index directory only
    writtenPaths: [],
  };
}
