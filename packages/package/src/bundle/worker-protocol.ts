import type { CreateBundleOptions } from "./options.js";

/** What a bundle worker thread is asked to do: one `createBundle`, its options fully resolved. */
export type WorkerBundleOptions = Omit<CreateBundleOptions, "onProgress"> & { mtime: number };
