import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { ExitCode, PkgError } from "@pkg/common";
import type { SiteChrome } from "../site/render/chrome.js";
import type { PageIdent, PageJob, PageResult } from "./page-job.js";

/** Renders and writes package pages, off the main thread when it can. */
export interface PageRenderer {
  /** Renders and writes one page; resolves with the written file's identity. */
  run(job: Omit<PageJob, "id">): Promise<PageIdent>;
  close(): Promise<void>;
}

/** The compiled worker; the same file whether this module runs from src (tests) or dist. */
const workerFile = fileURLToPath(new URL("../../dist/build/page-worker.js", import.meta.url));

/** Each worker's old generation is kept small (a page's garbage never needs more, and the build's
 *  peak memory is the sum of every heap); the young generation lets the Markdown parser's many
 *  short-lived tokens die there. It must stay well under the old: at 48 MiB each, a worker spent
 *  most of its time collecting. */
const workerLimits = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 24 };

/** CPU profiling flags of this process, which then profile the workers too. */
const workerExecArgv = process.execArgv.filter((arg) => arg.startsWith("--cpu-prof"));

/** Renders in this thread (the renderer's modules loaded on the first page). */
function inThread(chrome: SiteChrome): PageRenderer {
  return {
    run: async (job) => (await import("./page-job.js")).runPageJob(chrome, { ...job, id: 0 }),
    close: async () => {},
  };
}

/**
 * `size` workers rendering README Markdown and package pages and writing them, each job going to the
 * least busy worker; the main thread's heap then never holds the pages. Jobs go out in one message
 * per worker and turn of the event loop, and come back in one per batch: a message wakes the other
 * thread, which costs more than cloning a few pages' views. Without the compiled worker (sources
 * that were never built) the pages render in this thread, and so do the first `inline` pages.
 */
export function createPageRenderer(chrome: SiteChrome, size: number, inline = 0): PageRenderer {
  if (size < 1 || !existsSync(workerFile)) return inThread(chrome);
  if (inline > 0) return inlineFirst(chrome, size, inline);
  const pending = new Map<number, { resolve: (ident: PageIdent) => void; reject: (error: Error) => void }>();
  const load = new Array<number>(size).fill(0);
  const outbox: PageJob[][] = load.map(() => []);
  let flush: NodeJS.Immediate | undefined;
  let nextId = 0;
  let failure: Error | undefined;
  const workers = load.map((_, i) => {
    // execArgv is not inherited: a TypeScript loader or `--conditions=source` of the parent would make
    // the compiled worker resolve workspace packages to their sources
    const worker = new Worker(workerFile, {
      workerData: chrome,
      resourceLimits: workerLimits,
      execArgv: workerExecArgv,
    });
    worker.on("message", (results: PageResult[]) => {
      for (const result of results) {
        load[i] = (load[i] ?? 1) - 1;
        const job = pending.get(result.id);
        pending.delete(result.id);
        if ("error" in result) job?.reject(new PkgError(result.exitCode as ExitCode, result.error));
        else job?.resolve(result.ident);
      }
    });
    worker.on("error", (error) => {
      failure = new PkgError(ExitCode.Failed, `a page worker failed: ${error.message}`, { cause: error });
      for (const job of pending.values()) job.reject(failure);
      pending.clear();
    });
    return worker;
  });
  const send = () => {
    flush = undefined;
    outbox.forEach((jobs, i) => {
      if (jobs.length === 0) return;
      outbox[i] = [];
      workers[i]?.postMessage(jobs);
    });
  };
  return {
    run(job) {
      if (failure) return Promise.reject(failure);
      let target = 0;
      for (let i = 1; i < size; i++) if ((load[i] ?? 0) < (load[target] ?? 0)) target = i;
      load[target] = (load[target] ?? 0) + 1;
      const id = nextId++;
      return new Promise<PageIdent>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        outbox[target]?.push({ ...job, id });
        flush ??= setImmediate(send);
      });
    },
    async close() {
      if (flush !== undefined) clearImmediate(flush);
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}

/** The first `inline` pages in this thread, the workers started only for more: a build that renders
 *  a page or two (one package changed) spends nothing on starting them. */
function inlineFirst(chrome: SiteChrome, size: number, inline: number): PageRenderer {
  const local = inThread(chrome);
  let workers: PageRenderer | undefined;
  let run = 0;
  return {
    run(job) {
      if (workers === undefined && run++ < inline) return local.run(job);
      workers ??= createPageRenderer(chrome, size);
      return workers.run(job);
    },
    close: async () => {
      await workers?.close();
    },
  };
}
