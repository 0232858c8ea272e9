/**
 * `package sync`'s prepare step for a Python source: each planned version's environment packages
 * built by `prepareEnvVersions` (one version after another, as `pipeline prepare` does), each
 * pair's outcome its platform's layers and metadata, or why it failed.
 */
import { join, resolve } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { readMetadataFile } from "@pkg/package";
import type { BuiltPair } from "../build/build-pair.js";
import type { PairJob } from "../plan/jobs.js";
import type { PlanVersion } from "./documents/plan-document.js";
import type { PreparedVersion } from "./documents/prepared-version.js";
import type { PairOutcome, Preparation, PrepareOptions } from "./prepare.js";
import { prepareEnvVersions } from "./prepare-step/prepare-env.js";

export interface EnvPrepareContext extends PrepareOptions {
  /** The plan's entries of the versions to build (a `pypi` entry names its derived lock). */
  entries: readonly PlanVersion[];
  /** A `pylock` source's `path` is relative to it. */
  repoRoot: string;
  /** The directory the entries' `pylock` paths are relative to. */
  planDir: string;
  env: NodeJS.ProcessEnv;
}

/** Where sync puts a Python source's layers and their manifests, in its work directory. */
export const envBundlesDir = (workDir: string) => join(resolve(workDir), "bundles");

export function startEnvPrepare(context: EnvPrepareContext): Preparation {
  const bundlesDir = envBundlesDir(context.workDir);
  const versions = new Map<string, Promise<PreparedVersion | undefined>>();
  // one version at a time: each waits for the one before it
  let previous: Promise<unknown> = Promise.resolve();
  for (const entry of context.entries) {
    const prepared = previous.then(async () => {
      if (context.signal.aborted) return undefined;
      const [version] = await prepareEnvVersions([entry], { ...context, bundlesDir });
      if (version !== undefined && (version.failed.length > 0 || version.bundles.length === 0))
        context.onFailure?.();
      return version;
    });
    // a failure reaches whoever waits for its version; the next one starts all the same
    previous = prepared.catch(() => {});
    versions.set(entry.source_version, prepared);
  }
  return {
    async outcome(pair: PairJob): Promise<PairOutcome> {
      let prepared: PreparedVersion | undefined;
      try {
        prepared = await versions.get(pair.version);
      } catch (error) {
        return {
          ok: false,
          error: error instanceof PkgError ? error : new PkgError(ExitCode.Failed, String(error)),
        };
      }
      if (prepared === undefined) return { ok: "cancelled" };
      const failed = prepared.failed.find((f) => f.platform === pair.platform);
      if (failed !== undefined) return { ok: false, error: new PkgError(ExitCode.Failed, failed.message) };
      const bundle = prepared.bundles.find((b) => b.platform === pair.platform);
      if (bundle === undefined) return { ok: "cancelled" };
      const built: BuiltPair = {
        bundle: join(bundlesDir, bundle.bundle),
        metadata: await readMetadataFile(join(bundlesDir, bundle.metadata)),
        layers: (bundle.layers ?? []).map((layer) => ({
          path: join(bundlesDir, layer.file),
          digest: layer.digest,
          wheel: layer.wheel,
        })),
        reusedBundle: false,
        reusedDownload: false,
      };
      return { ok: true, built };
    },
    async close() {
      await previous;
    },
  };
}
