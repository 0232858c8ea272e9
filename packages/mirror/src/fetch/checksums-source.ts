import type { HttpClient } from "@pkg/net";
import { displayUrl } from "@pkg/net";
import { fetchOrFail } from "../sources/fetch-or-fail.js";
import { parseChecksumsFile } from "./checksums-file.js";
import type { ChecksumsSidecar } from "./verify-policy.js";

/** A checksums file is a short text; anything longer is refused. */
export const MAX_CHECKSUMS_BYTES = 16 * 1024 * 1024;

/** Fetches `verify.checksums_file` at most once per version (a failure is remembered too). */
export interface ChecksumsSource {
  forVersion(version: string): Promise<ChecksumsSidecar>;
}

/**
 * The spec's URL is used literally: it takes no placeholder and `url_rewrite` does not move it,
 * so a rewritten download host cannot also supply the digests its bytes are checked against.
 * Credentials follow the ladder for its own host.
 */
export function createChecksumsSource(http: HttpClient, url: string): ChecksumsSource {
  const byVersion = new Map<string, Promise<ChecksumsSidecar>>();
  async function load(): Promise<ChecksumsSidecar> {
    const response = await fetchOrFail(http, url, "checksums file", MAX_CHECKSUMS_BYTES);
    return { url, table: parseChecksumsFile(response.body.toString("utf8"), displayUrl(url)) };
  }
  return {
    forVersion(version) {
      let sidecar = byVersion.get(version);
      if (!sidecar) {
        sidecar = load();
        // a version whose tasks all fail early would otherwise leave the rejection unobserved
        sidecar.catch(() => {});
        byVersion.set(version, sidecar);
      }
      return sidecar;
    },
  };
}
