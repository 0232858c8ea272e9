import { ExitCode, PkgError } from "@pkg/common";

/** One entry of a Docker token `access` claim, and the parsed form of a `scope` parameter. */
export interface ResourceAccess {
  type: string;
  name: string;
  actions: string[];
}

/**
 * Parses `scope` parameters (`repository:<name>:<actions>`, `registry:catalog:*`, several per
 * parameter when space-separated). The name sits between the first and the last colon: a name
 * that includes a host with a port holds a colon itself. Scopes naming the same resource are merged.
 */
export function parseScopes(values: string[]): ResourceAccess[] {
  const merged = new Map<string, ResourceAccess>();
  for (const scope of values.flatMap((value) => value.split(" ")).filter((s) => s !== "")) {
    const first = scope.indexOf(":");
    const last = scope.lastIndexOf(":");
    if (first <= 0 || last === first) {
      throw new PkgError(ExitCode.Usage, `invalid scope "${scope}": expected <type>:<name>:<actions>`);
    }
    const type = scope.slice(0, first);
    const name = scope.slice(first + 1, last);
    const actions = scope
      .slice(last + 1)
      .split(",")
      .filter((action) => action !== "");
    const key = `${type}:${name}`;
    const existing = merged.get(key);
    if (existing) existing.actions = [...new Set([...existing.actions, ...actions])];
    else merged.set(key, { type, name, actions: [...new Set(actions)] });
  }
  return [...merged.values()];
}

/** The user holding the harness credential gets what it asks for; anonymous callers get nothing. */
export function grantAccess(requested: ResourceAccess[], authenticated: boolean): ResourceAccess[] {
  return authenticated ? requested : [];
}

export interface TokenClaims {
  iss: string;
  sub: string;
  aud: string;
  exp: number;
  nbf: number;
  iat: number;
  jti: string;
  access: ResourceAccess[];
}

/** The claim set of a registry token, valid from a second ago (clock skew) for `lifetimeSeconds`. */
export function tokenClaims(input: {
  issuer: string;
  service: string;
  subject: string;
  access: ResourceAccess[];
  nowSeconds: number;
  lifetimeSeconds: number;
  jti: string;
}): TokenClaims {
  return {
    iss: input.issuer,
    sub: input.subject,
    aud: input.service,
    exp: input.nowSeconds + input.lifetimeSeconds,
    nbf: input.nowSeconds - 1,
    iat: input.nowSeconds,
    jti: input.jti,
    access: input.access,
  };
}
