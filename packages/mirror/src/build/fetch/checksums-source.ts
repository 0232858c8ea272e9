import type { HttpClient } from "@pkg/net";
import { displayUrl } from "@pkg/net";
import { fetchOrFail } from "../../sources/fetch-or-fail.js";
import { parseChecksumsFile } from "./checksums-file.js";
import type { ChecksumsSidecar } from "./verify-policy.js";

/** A checksums file is a short text; anything longer is refused. */
export const MAX_CHECKSUMS_BYTES = 16 * 1024 * 1024;

/**
 * `verify.checksums_file` of one run: fetched once, on first use. Every pair shares that one
 * request (a pair asking while it is in flight waits for it), and its outcome, a failure too: a
 * 404 is answered once and every pair reports that same failure without fetching again.
 */
export interface ChecksumsSource {
  sidecar(): Promise<ChecksumsSidecar>;
}

/**
 * The spec's URL is used literally: it takes no placeholder (so one URL serves every version and
 * platform) and `url_rewrite` does not move it, so a rewritten download host cannot also supply
 * the digests its bytes are checked against. Credentials follow the ladder for its own host.
 */
export function createChecksumsSource(http: HttpClient, url: string): ChecksumsSource {
  let fetched: Promise<ChecksumsSidecar> | undefined;
  async function load(): Promise<ChecksumsSidecar> {
    const response = await fetchOrFail(http, url, "checksums file", MAX_CHECKSUMS_BYTES);
    return { url, table: parseChecksumsFile(response.body.toString("utf8"), displayUrl(url)) };
  }
  return {
    sidecar() {
      if (!fetched) {
        fetched = load();
        // pairs that all fail early would otherwise leave the rejection unobserved
        fetched.catch(() => {});
      }
      return fetched;
    },
  };
}
