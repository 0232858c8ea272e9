/** What Docker's `config.json` says about one registry host. */
export type DockerConfigLookup =
  | { kind: "basic"; username: string; password: string }
  | { kind: "token"; username?: string; token: string }
  | { kind: "helper"; helper: string }
  | { kind: "none" };

interface AuthEntry {
  auth?: unknown;
  username?: unknown;
  password?: unknown;
  identitytoken?: unknown;
}

const dockerHubHosts = new Set(["docker.io", "index.docker.io", "registry-1.docker.io"]);

/** `https://host/v1/`, `http://host`, `host` → `host` (lower-cased); Docker Hub's aliases fold together. */
function normaliseKey(key: string): string {
  const host = key
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")
    .replace(/\/.*$/, "")
    .toLowerCase();
  return dockerHubHosts.has(host) ? "docker.io" : host;
}

function asString(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function fromAuthEntry(entry: AuthEntry): DockerConfigLookup {
  const identityToken = asString(entry.identitytoken);
  const encoded = asString(entry.auth);
  let username = asString(entry.username);
  let password = asString(entry.password);
  if (encoded) {
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) {
      username = decoded.slice(0, colon);
      password = decoded.slice(colon + 1);
    }
  }
  if (identityToken)
    return username
      ? { kind: "token", username, token: identityToken }
      : { kind: "token", token: identityToken };
  if (username && password) return { kind: "basic", username, password };
  return { kind: "none" };
}

function lookupKey<T>(table: unknown, host: string): T | undefined {
  if (!table || typeof table !== "object") return undefined;
  const wanted = normaliseKey(host);
  for (const [key, value] of Object.entries(table)) {
    if (normaliseKey(key) === wanted) return value as T;
  }
  return undefined;
}

/**
 * Resolves `host` in a parsed config.json: `credHelpers[host]` first, then a usable `auths`
 * entry (keys written as `host` or `https://host/...`), then the global `credsStore`.
 */
export function lookupDockerConfig(config: unknown, host: string): DockerConfigLookup {
  if (!config || typeof config !== "object") return { kind: "none" };
  const { auths, credHelpers, credsStore } = config as Record<string, unknown>;
  const helper = asString(lookupKey<unknown>(credHelpers, host));
  if (helper) return { kind: "helper", helper };
  const entry = lookupKey<AuthEntry>(auths, host);
  if (entry && typeof entry === "object") {
    const found = fromAuthEntry(entry);
    if (found.kind !== "none") return found;
  }
  const store = asString(credsStore);
  return store ? { kind: "helper", helper: store } : { kind: "none" };
}

/** A credential helper's `get` answer: `{"Username": ..., "Secret": ...}`; `<token>` marks an identity token. */
export function parseHelperOutput(output: string): DockerConfigLookup {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output);
  } catch {
    return { kind: "none" };
  }
  if (!parsed || typeof parsed !== "object") return { kind: "none" };
  const { Username, Secret } = parsed as Record<string, unknown>;
  const username = asString(Username);
  const secret = asString(Secret);
  if (!secret) return { kind: "none" };
  if (!username || username === "<token>") return { kind: "token", token: secret };
  return { kind: "basic", username, password: secret };
}
