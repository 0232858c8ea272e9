import type { HttpMethod } from "./types.js";

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * The method of the hop a redirect leads to, and whether the body goes along, as browsers and
 * curl do: 303 turns anything but GET and HEAD into a GET without body, 301 and 302 turn a POST
 * into one; 307 and 308 (and 301/302 of other methods) resend the same method and body.
 */
export function redirectedMethod(status: number, method: HttpMethod): { method: HttpMethod; body: boolean } {
  if (status === 303 && method !== "GET" && method !== "HEAD") return { method: "GET", body: false };
  if ((status === 301 || status === 302) && method === "POST") return { method: "GET", body: false };
  return { method, body: method !== "GET" && method !== "HEAD" };
}
