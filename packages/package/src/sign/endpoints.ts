import { usageError } from "@pkg/common";
import { isLoopbackHost } from "@pkg/oci";

/** The public Sigstore instance: the certificate authority and the transparency log keyless signing uses by default. */
export const PUBLIC_CA_URL = "https://fulcio.sigstore.dev";
export const PUBLIC_LOG_URL = "https://rekor.sigstore.dev";

/** A service URL from a flag: https, or http on loopback only (a test or a local instance). */
export function serviceUrl(text: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${flag}: not a URL`);
  }
  if (url.username || url.password) throw usageError(`${flag}: a URL with credentials is refused`);
  if (url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.host))) {
    return url.toString().replace(/\/$/, "");
  }
  throw usageError(`${flag}: needs an https URL (http only on loopback)`);
}
