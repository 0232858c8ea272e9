import {
  type FaultProxy,
  type RunningRegistry,
  startFaultProxy,
  startRegistry,
  type TempDir,
  type TestServer,
} from "@pkg/testkit";
import { afterAll, beforeAll } from "vitest";
import { syncWorkspace } from "./sync-run.js";

/** What a sync test file runs against; filled in by its `beforeAll`. */
export interface SyncEnv<Forge extends TestServer = TestServer> {
  work: TempDir;
  registry: RunningRegistry;
  /** A fault proxy in front of `registry`; only there when asked for. */
  proxy: FaultProxy;
  forge: Forge;
}

export interface SyncEnvOptions<Forge extends TestServer = TestServer> {
  /** Put a fault proxy in front of the registry. */
  proxy?: boolean;
  /** Starts the upstream forge once the workspace exists. */
  forge: (work: TempDir) => Promise<Forge>;
}

/**
 * Registers the `beforeAll`/`afterAll` of a sync test file: a sync workspace, a registry (and a
 * fault proxy in front of it if asked) and the forge; all stopped and removed after the file.
 */
export function useSyncEnv<Forge extends TestServer = TestServer>(
  prefix: string,
  options: SyncEnvOptions<Forge>,
): SyncEnv<Forge> {
  const started: Partial<SyncEnv<Forge>> = {};
  const env = {} as SyncEnv<Forge>;
  for (const key of ["work", "registry", "proxy", "forge"] as const) {
    Object.defineProperty(env, key, {
      get() {
        const value = started[key];
        if (value === undefined) throw new Error(`the sync environment has no ${key}`);
        return value;
      },
    });
  }
  beforeAll(async () => {
    started.work = await syncWorkspace(prefix);
    started.registry = await startRegistry();
    if (options.proxy) started.proxy = await startFaultProxy(started.registry.url);
    started.forge = await options.forge(started.work);
  }, 60_000);
  afterAll(async () => {
    await started.forge?.stop();
    await started.proxy?.stop();
    await started.registry?.stop();
    await started.work?.remove();
  });
  return env;
}
