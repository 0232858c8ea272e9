// The entry of an unpack worker thread (see unpack-pool.ts): unpacks one asset per request.
import { serveRequests } from "@pkg/common";
import { unpackAsset } from "./unpack.js";
import type { UnpackRequest } from "./unpack-pool.js";

serveRequests((request: UnpackRequest) => unpackAsset(request.file, request.destDir, request.options));
