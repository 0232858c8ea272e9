import type { ExitCode } from "@pkg/common";
import type { BundleResult } from "./create.js";
import type { CreateBundleOptions } from "./options.js";

/** What a bundle worker thread is asked to do: one `createBundle`, its options fully resolved. */
export type WorkerBundleOptions = Omit<CreateBundleOptions, "onProgress"> & { mtime: number };

export type WorkerReply =
  | { ok: true; result: BundleResult }
  | { ok: false; exitCode: ExitCode; message: string; detail: string | undefined };
