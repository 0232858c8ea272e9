// The entry of a bundle worker thread (see worker-pool.ts): writes one bundle per message.
import { parentPort } from "node:worker_threads";
import { describeError, isPkgError } from "@pkg/common";
import { createBundle } from "./create.js";
import type { WorkerBundleOptions, WorkerReply } from "./worker-protocol.js";

const port = parentPort;
if (!port) throw new Error("bundle-worker.js runs as a worker thread only");

port.on("message", (options: WorkerBundleOptions) => {
  createBundle(options).then(
    (result) => port.postMessage({ ok: true, result } satisfies WorkerReply),
    (error: unknown) => {
      const { exitCode, line } = describeError(error);
      const detail = isPkgError(error) ? error.detail : undefined;
      port.postMessage({ ok: false, exitCode, message: line, detail } satisfies WorkerReply);
    },
  );
});
