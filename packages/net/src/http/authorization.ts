import { type Credential, resolveCredential } from "../credentials/credentials.js";

/** The `Authorization` value a ladder credential sends. */
export function authorizationValue(credential: Credential): string {
  if (credential.kind === "token") return `Bearer ${credential.token}`;
  const pair = Buffer.from(`${credential.username}:${credential.password}`).toString("base64");
  return `Basic ${pair}`;
}

/**
 * The host-keyed ladder of the spec (PKG_AUTH_<slug>_*, then netrc; Docker's config.json is not a
 * step here), resolved once per `host[:port]` for the life of a client.
 */
export function ladderAuthorization(env: NodeJS.ProcessEnv): (host: string) => Promise<string | undefined> {
  const cache = new Map<string, Promise<string | undefined>>();
  return (host) => {
    let found = cache.get(host);
    if (!found) {
      found = resolveCredential(host, { env, dockerConfig: false }).then((credential) =>
        credential ? authorizationValue(credential) : undefined,
      );
      cache.set(host, found);
    }
    return found;
  };
}
