import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeError, type Logger } from "@pkg/common";
import { loadCatalogConfig } from "../config/load.js";
import { devRequestHandler } from "./dev-handler.js";
import { EventStream } from "./event-stream.js";
import { listenForDev } from "./listen.js";
import { type BuildSite, Rebuilder } from "./rebuilder.js";
import { watchTargets } from "./watch-targets.js";
import { InputWatcher } from "./watcher.js";

/** Quiet time after the last change before a rebuild starts, so one save is one build. */
const debounceMs = 100;

export interface DevServerOptions {
  configPath: string;
  host: string;
  /** An explicit port must be free; without one, 4321 or else any free port. */
  port?: number;
  log: Logger;
  /** Builds the site for the config into `outDir`, leaving it as it was when it throws. */
  build: BuildSite;
}

export interface DevServer {
  url: string;
  /** Stops watching and serving and removes the private build directory. */
  close(): Promise<void>;
}

/**
 * Builds the site into a private temporary directory, serves it, and rebuilds on every change to
 * the config or a file it names, telling open pages to reload (or showing them the error, while
 * the last good build stays served). The first build must succeed: its error is thrown.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const { log } = options;
  const config = await loadCatalogConfig(options.configPath);
  const workDir = await mkdtemp(join(tmpdir(), "pkg-catalog-dev-"));
  const events = new EventStream();
  let closed = false;
  let initial = true;
  let initialError: unknown;
  // the config may name other paths after a change: they are watched before the pages hear of the
  // rebuild (a config that does not load keeps the old watches; the build reports its error)
  const buildAndRewatch = async (outDir: string) => {
    try {
      return await options.build(outDir);
    } finally {
      try {
        const targets = watchTargets(await loadCatalogConfig(config.file));
        if (!closed) watcher.update(targets);
      } catch {}
    }
  };
  const rebuilder = new Rebuilder(workDir, buildAndRewatch, {
    built(milliseconds, detail) {
      if (initial) return;
      log.info(`rebuilt in ${milliseconds} ms${detail === undefined ? "" : `: ${detail}`}`);
      events.send({ name: "reload", data: String(milliseconds) });
    },
    failed(error) {
      if (initial) {
        initialError = error;
        return;
      }
      const { line } = describeError(error);
      log.info(`rebuild failed, still serving the last good build: ${line}`);
      events.send({ name: "error", data: line });
    },
  });

  const server = createServer(devRequestHandler(events, () => rebuilder.current));

  const watcher = new InputWatcher(schedule);
  let timer: NodeJS.Timeout | undefined;
  function schedule(): void {
    clearTimeout(timer);
    timer = setTimeout(() => void rebuildAndRewatch(), debounceMs);
  }
  async function rebuildAndRewatch(): Promise<void> {
    await rebuilder.rebuild();
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    watcher.close();
    await rebuilder.settle();
    events.closeAll();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    await rm(workDir, { recursive: true, force: true });
  }

  try {
    const port = await listenForDev(server, options.host, options.port);
    watcher.update(watchTargets(config));
    if (!(await rebuilder.rebuild())) throw initialError;
    initial = false;
    // the other build directory is brought up to date now (linking what the first build wrote), so
    // the first change rebuilds only what it touches
    void rebuilder.rebuild({ quiet: true });
    const host = options.host.includes(":") ? `[${options.host}]` : options.host;
    return { url: `http://${host}:${port}/`, close };
  } catch (error) {
    await close();
    throw error;
  }
}
