import { createRequire } from "node:module";
import { setFlagsFromString } from "node:v8";
import type { Dispatcher, EnvHttpProxyAgent } from "undici";

/** What the client needs of undici: the proxy-aware agent and the request API. */
export interface UndiciCore {
  EnvHttpProxyAgent: typeof EnvHttpProxyAgent;
  request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

const require = createRequire(import.meta.url);
let loaded: UndiciCore | undefined;

/**
 * undici, loaded on the first request: its index also loads fetch, WebSocket, mocks, caches and
 * interceptors, some 60 ms of every start-up that the client does not use, so the agent and the
 * request API are loaded from their own modules (undici has no `exports` map to forbid it). Should
 * a release move them, the whole package is loaded instead. Like undici's index, this puts the
 * request API on undici's dispatcher prototype.
 */
export function undiciCore(): UndiciCore {
  if (loaded === undefined) {
    // undici parses HTTP with llhttp compiled to WebAssembly. V8 recompiles its hot parser
    // function with TurboFan after a small budget, some 80 ms of CPU spent on the first answer of
    // every process, while the baseline code parses this traffic (heads, and bodies passed
    // through in spans) fast enough: the budget is raised so that tier-up does not happen.
    setFlagsFromString(`--wasm-tiering-budget=${WASM_TIERING_BUDGET}`);
    loaded = loadCore();
  }
  return loaded;
}

const WASM_TIERING_BUDGET = 2_000_000_000;

function loadCore(): UndiciCore {
  try {
    // require() is untyped: these are the modules behind undici's `EnvHttpProxyAgent` and its
    // request API, which undici's index puts on every dispatcher (proxies tunnel with `connect`)
    const agent = require("undici/lib/dispatcher/env-http-proxy-agent.js") as typeof EnvHttpProxyAgent;
    const api = require("undici/lib/api/index.js") as { request: unknown; connect: unknown };
    const base = require("undici/lib/dispatcher/dispatcher.js") as { prototype: object };
    if (
      typeof agent !== "function" ||
      typeof api.request !== "function" ||
      typeof api.connect !== "function"
    ) {
      throw new Error("undici's modules moved");
    }
    Object.assign(base.prototype, api);
    return { EnvHttpProxyAgent: agent, request: (dispatcher, options) => dispatcher.request(options) };
  } catch {
    const undici = require("undici") as typeof import("undici");
    return {
      EnvHttpProxyAgent: undici.EnvHttpProxyAgent,
      request: (dispatcher, options) => dispatcher.request(options),
    };
  }
}
