import { parentPort, workerData } from "node:worker_threads";
import { isPkgError } from "@pkg/common";
import type { SiteChrome } from "../site/render/chrome.js";
import { type PageJob, type PageResult, runPageJob } from "./page-job.js";

/** Renders and writes package pages for the build's main thread (see page-pool.ts). */
const chrome = workerData as SiteChrome;

parentPort?.on("message", (job: PageJob) => {
  let result: PageResult;
  try {
    result = { id: job.id, ident: runPageJob(chrome, job) };
  } catch (error) {
    const exitCode = isPkgError(error) ? error.exitCode : 1;
    result = { id: job.id, error: error instanceof Error ? error.message : String(error), exitCode };
  }
  parentPort?.postMessage(result);
});
