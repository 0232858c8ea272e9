import { createSecureContext, rootCertificates } from "node:tls";
import { registerSecret } from "@pkg/common";
import type { EnvHttpProxyAgent } from "undici";
import { extraCasFromEnv } from "../tls-ca.js";
import { undiciCore } from "./undici-core.js";

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
 * A connection pool of one client: proxies from `env` (never from process.env behind its back).
 * With `tls` (the pool of https requests, or any behind an https proxy), TLS trusts Node's roots
 * plus the extra CAs of `env` and `extraCa`, for direct, tunnelled and proxy connections alike,
 * in one TLS context; a pool without TLS reads no CA at all.
 */
export async function createProxyDispatcher(
  env: NodeJS.ProcessEnv,
  extraCa: readonly string[],
  options: { connectTimeoutMs?: number; tls: boolean },
): Promise<EnvHttpProxyAgent> {
  const settings = proxySettings(env);
  registerProxyPassword(settings.httpProxy);
  registerProxyPassword(settings.httpsProxy);
  const { EnvHttpProxyAgent } = undiciCore();
  const timeout = options.connectTimeoutMs === undefined ? {} : { timeout: options.connectTimeoutMs };
  const httpsProxy = /^https:/i.test(settings.httpProxy) || /^https:/i.test(settings.httpsProxy);
  if (!options.tls && !httpsProxy) return new EnvHttpProxyAgent({ ...settings, connect: timeout });
  // the CA list (often hundreds of certificates, repeated across the variables) is parsed once
  const ca = [...new Set([...rootCertificates, ...(await extraCasFromEnv(env)), ...extraCa])];
  const tls = { secureContext: createSecureContext({ ca }) };
  return new EnvHttpProxyAgent({
    ...settings,
    connect: { ...tls, ...timeout },
    requestTls: tls,
    proxyTls: tls,
  });
}
