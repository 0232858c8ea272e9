import {
  type RequestHandler,
  startHttpServer,
  type TempDir,
  type TestCa,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterEach, beforeEach } from "vitest";
import { createHttpClient, type HttpClientOptions, type PooledHttpClient } from "../../src/http/client.js";

/** What each test of a file gets afresh: an environment, clients and loopback servers, all undone after it. */
export interface NetTestBed {
  /**
   * The clients' environment: HOME is an empty directory and no proxy variable is set, so nothing
   * of the machine leaks in. A test may add variables before it makes a client.
   */
  readonly env: NodeJS.ProcessEnv;
  /** The empty directory HOME names. */
  readonly home: string;
  /** A client on `env` (options given win), closed after the test. */
  client(options?: HttpClientOptions): PooledHttpClient;
  /** A loopback server (https with `tls`), stopped after the test. */
  server(handler: RequestHandler, options?: { tls?: TestCa }): Promise<TestServer>;
  /** Runs after the test; cleanups run in the reverse order of their registration. */
  onCleanup(cleanup: () => Promise<unknown>): void;
}

/** Registers the file's `beforeEach`/`afterEach` and returns the bed each test uses. */
export function useNetTestBed(prefix: string): NetTestBed {
  const cleanups: Array<() => Promise<unknown>> = [];
  let dir: TempDir | undefined;
  let env: NodeJS.ProcessEnv = {};
  beforeEach(async () => {
    const made = await tempDir(prefix);
    dir = made;
    env = { HOME: made.path };
    cleanups.push(() => made.remove());
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const onCleanup = (cleanup: () => Promise<unknown>) => {
    cleanups.push(cleanup);
  };
  return {
    get env() {
      return env;
    },
    get home() {
      if (!dir) throw new Error("the test bed is used outside a test");
      return dir.path;
    },
    client(options = {}) {
      const made = createHttpClient({ ...options, env: { ...env, ...options.env } });
      onCleanup(() => made.close());
      return made;
    },
    async server(handler, options = {}) {
      const started = await startHttpServer(handler, options);
      onCleanup(() => started.stop());
      return started;
    },
    onCleanup,
  };
}
