// The entry of a bundle worker thread (see worker-pool.ts): writes one bundle per request.
import { serveRequests } from "@pkg/common";
import { createBundle } from "./create.js";
import type { WorkerBundleOptions } from "./worker-protocol.js";

serveRequests((options: WorkerBundleOptions) => createBundle(options));
