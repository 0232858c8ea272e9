import { resolve } from "node:path";
import type { Logger } from "@pkg/common";
import { openLayout, openRegistry, type Target } from "@pkg/oci";
import { type RunnableSpec, runnableSpec } from "../plan/plan-run.js";
import { formatDiagnostic } from "../spec/diagnostics.js";
import { type LoadedSpec, loadMirrorSpec } from "../spec/loader.js";

/** Loads a spec for a command that runs it: its warnings logged, the keys every run needs checked. */
export async function loadRunnableSpec(
  path: string,
  repoRoot: string | undefined,
  log: Logger,
): Promise<{ loaded: LoadedSpec; spec: RunnableSpec }> {
  const loaded = await loadMirrorSpec(path, { repoRoot });
  for (const warning of loaded.warnings) log.warn(formatDiagnostic(warning));
  return { loaded, spec: runnableSpec(loaded.spec) };
}

/**
 * The spec's target repository, or the same repository in an OCI image layout under `layout`.
 * `publishing`: the publisher retries on its own terms (75 only, the spec's backoff), so the
 * registry client must not retry underneath it.
 */
export function openSpecTarget(spec: RunnableSpec, options: SpecTargetOptions): Target {
  return openSpecRepository(spec, spec.target.repository, options);
}

export interface SpecTargetOptions {
  layout?: string | undefined;
  env: NodeJS.ProcessEnv;
  publishing?: boolean;
}

/** Another repository of the spec's registry (or of the layout): the shared wheel layers'. */
export function openSpecRepository(
  spec: RunnableSpec,
  repository: string,
  options: SpecTargetOptions,
): Target {
  if (options.layout !== undefined) return openLayout(resolve(options.layout), repository);
  return openRegistry(
    { host: spec.target.registry, repository },
    { env: options.env, ...(options.publishing ? { retry: { retries: 0 } } : {}) },
  );
}
