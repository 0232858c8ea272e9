import { createSecureContext, rootCertificates } from "node:tls";
import { registerSecret } from "@pkg/common";
import { EnvHttpProxyAgent } from "undici";
import { extraCasFromEnv } from "../tls-ca.js";

export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/** `http_proxy` / `HTTP_PROXY` and friends; the lower-case spelling wins, as curl reads them. */
export function proxySettings(env: NodeJS.ProcessEnv): ProxySettings {
  const read = (name: string) => env[name.toLowerCase()] ?? env[name.toUpperCase()] ?? "";
  return { httpProxy: read("http_proxy"), httpsProxy: read("https_proxy"), noProxy: read("no_proxy") };
}

function registerProxyPassword(proxy: string): void {
  try {
    const password = new URL(proxy).password;
    if (password) {
      registerSecret(password);
      registerSecret(decodeURIComponent(password));
    }
  } catch {
    // undici reports an unparsable proxy URL itself, when it is used
  }
}

/**
 * The connection pool of one client: proxies from `env` (never from process.env behind its back)
 * and TLS trusting Node's roots plus the extra CAs of `env` and `extraCa`, for direct, tunnelled
 * and proxy connections alike.
 */
export async function createProxyDispatcher(
  env: NodeJS.ProcessEnv,
  extraCa: readonly string[],
  options: { connectTimeoutMs?: number } = {},
): Promise<EnvHttpProxyAgent> {
  const settings = proxySettings(env);
  registerProxyPassword(settings.httpProxy);
  registerProxyPassword(settings.httpsProxy);
  // one TLS context for every connection of the client: the CA list (often hundreds of
  // certificates, repeated across the variables) is parsed once, not per connection
  const ca = [...new Set([...rootCertificates, ...(await extraCasFromEnv(env)), ...extraCa])];
  const tls = { secureContext: createSecureContext({ ca }) };
  const connect =
    options.connectTimeoutMs === undefined ? tls : { ...tls, timeout: options.connectTimeoutMs };
  return new EnvHttpProxyAgent({ ...settings, connect, requestTls: tls, proxyTls: tls });
}
