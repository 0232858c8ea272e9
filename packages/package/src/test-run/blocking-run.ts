import { MessageChannel, type MessagePort, receiveMessageOnPort, type Worker } from "node:worker_threads";
import { type ExitCode, PkgError, startEntryWorker } from "@pkg/common";
import type { CapturedRun } from "./capture.js";
import type { RunRequest } from "./run-request.js";

/** What the worker answers: the run, or the one-line error it failed with. */
export type RunReply = { ok: true; run: CapturedRun } | { ok: false; exitCode: ExitCode; message: string };

/** How much longer than a run's own deadline the caller waits for its worker before giving up on it. */
const WORKER_GRACE_MS = 60_000;

/**
 * Runs programs for a synchronous caller (a Starlark host function cannot await): each request
 * goes to a worker thread, which resolves, runs and captures it while this thread waits on a
 * shared flag. One worker, started on first use, serves the runs one after another.
 */
export class BlockingRunner {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));

  /** Runs `request` and returns how it ended; a program that cannot be resolved or started throws its PkgError. */
  run(request: RunRequest): CapturedRun {
    const { worker, port } = this.started();
    Atomics.store(this.flag, 0, 0);
    worker.postMessage(request);
    const limit = request.timeoutMs === undefined ? undefined : request.timeoutMs + WORKER_GRACE_MS;
    if (Atomics.wait(this.flag, 0, 0, limit) === "timed-out") {
      throw new PkgError(1, `${request.prog}: no answer from the run's worker thread`);
    }
    const received = receiveMessageOnPort(port);
    if (received === undefined) throw new Error("the run's worker woke without an answer");
    const reply = received.message as RunReply;
    if (!reply.ok) throw new PkgError(reply.exitCode, reply.message);
    return reply.run;
  }

  async close(): Promise<void> {
    this.port?.close();
    await this.worker?.terminate();
    this.worker = undefined;
    this.port = undefined;
  }

  private started(): { worker: Worker; port: MessagePort } {
    if (this.worker !== undefined && this.port !== undefined) return { worker: this.worker, port: this.port };
    const worker = startEntryWorker(import.meta.url, "./run-worker.js", "../../dist/test-run/run-worker.js");
    worker.unref();
    const { port1, port2 } = new MessageChannel();
    worker.postMessage({ init: { port: port2, flag: this.flag.buffer } }, [port2]);
    this.worker = worker;
    this.port = port1;
    return { worker, port: port1 };
  }
}
