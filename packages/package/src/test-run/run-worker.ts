// The worker thread behind `BlockingRunner`: runs one request at a time and wakes the blocked caller.
import { type MessagePort, parentPort } from "node:worker_threads";
import { describeError } from "@pkg/common";
import type { RunReply } from "./blocking-run.js";
import { performRun, type RunRequest } from "./run-request.js";

let channel: { port: MessagePort; flag: Int32Array } | undefined;

parentPort?.on(
  "message",
  (message: { init: { port: MessagePort; flag: SharedArrayBuffer } } | RunRequest) => {
    if ("init" in message) {
      channel = { port: message.init.port, flag: new Int32Array(message.init.flag) };
      return;
    }
    void answer(message);
  },
);

async function answer(request: RunRequest): Promise<void> {
  let reply: RunReply;
  try {
    reply = { ok: true, run: await performRun(request) };
  } catch (error) {
    const { exitCode, line } = describeError(error);
    reply = { ok: false, exitCode, message: line };
  }
  if (channel === undefined) return;
  channel.port.postMessage(reply);
  Atomics.store(channel.flag, 0, 1);
  Atomics.notify(channel.flag, 0);
}
