import { isIP } from "node:net";

/** The subjectAltName value for a server certificate: always loopback, plus the names asked for. */
export function subjectAltNames(hostnames: string[]): string {
  const entries = ["IP:127.0.0.1", "DNS:localhost"];
  for (const name of hostnames) {
    const entry = isIP(name) === 0 ? `DNS:${name}` : `IP:${name}`;
    if (!entries.includes(entry)) entries.push(entry);
  }
  return entries.join(",");
}
