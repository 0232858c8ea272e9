import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";

/** Headers that describe one connection, not the message, and so are never forwarded (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "expect",
]);

/** The end-to-end headers of a message: hop-by-hop ones and those named by `Connection` removed. */
export function endToEndHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = new Set(
    String(headers.connection ?? "")
      .split(",")
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ""),
  );
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !named.has(name)) out[name] = value;
  }
  return out;
}

/** Points absolute `Location` and `Link` URLs at the upstream back at the proxy. */
export function rewriteUpstreamUrls(
  headers: OutgoingHttpHeaders,
  upstreamOrigin: string,
  proxyOrigin: string,
): void {
  for (const name of ["location", "link"]) {
    const value = headers[name];
    if (typeof value === "string") headers[name] = value.split(upstreamOrigin).join(proxyOrigin);
  }
}
