import { parentPort, workerData } from "node:worker_threads";
import { isPkgError } from "@pkg/common";
import type { SiteChrome } from "../site/render/chrome.js";
import { type PageJob, type PageResult, runPageJob } from "./page-job.js";

/** Renders and writes package pages for the build's main thread: a batch of jobs per message, their
 *  results sent back a few at a time (the main thread hands out more as they come; see page-pool.ts). */
const chrome = workerData as SiteChrome;

/** Results sent back in one message. */
const RESULTS_PER_MESSAGE = 4;

parentPort?.on("message", (jobs: PageJob[]) => {
  let results: PageResult[] = [];
  for (const job of jobs) {
    if (results.length === RESULTS_PER_MESSAGE) {
      parentPort?.postMessage(results);
      results = [];
    }
    try {
      results.push({ id: job.id, ident: runPageJob(chrome, job) });
    } catch (error) {
      const exitCode = isPkgError(error) ? error.exitCode : 1;
      results.push({ id: job.id, error: error instanceof Error ? error.message : String(error), exitCode });
    }
  }
  parentPort?.postMessage(results);
});
