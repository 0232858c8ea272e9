import { ExitCode, PkgError, registerSecret } from "@pkg/common";
import {
  type Credential,
  classifyNetworkError,
  credentialSlug,
  type HttpMethod,
  isRetryableStatus,
} from "@pkg/net";
import { type Challenge, parseChallenges } from "./challenge.js";
import { drain, type RegistryResponse, readBody } from "./response.js";

/** Sends one request (to the token realm); network errors propagate for the caller to classify. */
export type RealmSender = (request: {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  body?: Buffer;
}) => Promise<RegistryResponse>;

type KnownChallenge = { scheme: "basic" } | { scheme: "bearer"; realm?: string; service?: string };

interface CachedToken {
  value: string;
  expiresAt: number;
}

const MAX_TOKEN_RESPONSE = 1024 * 1024;
const DEFAULT_TOKEN_LIFETIME_S = 60;

export function basicAuthorization(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

/** The challenge worth answering: Bearer with a realm first, then Basic, then a bare Bearer. */
export function pickChallenge(challenges: Challenge[]): KnownChallenge | undefined {
  const bearer = challenges.find((c) => c.scheme === "bearer" && c.params.realm);
  if (bearer) {
    const known: KnownChallenge = { scheme: "bearer", realm: bearer.params.realm as string };
    if (bearer.params.service !== undefined) known.service = bearer.params.service;
    return known;
  }
  if (challenges.some((c) => c.scheme === "basic")) return { scheme: "basic" };
  if (challenges.some((c) => c.scheme === "bearer")) return { scheme: "bearer" };
  return undefined;
}

function scopeKey(scopes: string[]): string {
  return [...new Set(scopes)].sort().join(" ");
}

/**
 * Authorization for one registry host: learns the host's challenge from a 401, then answers it
 * with the host's credential (Basic), or with Bearer tokens fetched from the realm and cached per
 * scope set until they expire.
 */
export class Authenticator {
  #challenge: KnownChallenge | undefined;
  #tokens = new Map<string, CachedToken>();
  #pending = new Map<string, Promise<string | undefined>>();
  /** Set when the realm does not take our token in an OAuth2 exchange: it is then sent as is. */
  #sendTokenDirectly = false;

  constructor(
    readonly host: string,
    private readonly credential: () => Promise<Credential | undefined>,
    private readonly send: RealmSender,
    private readonly now: () => number = Date.now,
  ) {}

  /** The `Authorization` value for a request needing `scopes`, or undefined (anonymous, or not yet challenged). */
  async authorization(scopes: string[], operation: string): Promise<string | undefined> {
    const challenge = this.#challenge;
    if (!challenge) return undefined;
    const credential = await this.credential();
    if (challenge.scheme === "basic" || !challenge.realm || this.#sendTokenDirectly) {
      if (credential?.kind === "basic") return basicAuthorization(credential.username, credential.password);
      if (credential?.kind !== "token") return undefined;
      const asBasic = challenge.scheme === "basic" && credential.username !== undefined;
      return asBasic
        ? basicAuthorization(credential.username as string, credential.token)
        : `Bearer ${credential.token}`;
    }
    const key = scopeKey(scopes);
    const cached = this.#tokens.get(key);
    if (cached && cached.expiresAt > this.now()) return `Bearer ${cached.value}`;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#fetchToken(challenge.realm, challenge.service, scopes, credential, operation).finally(
        () => this.#pending.delete(key),
      );
      this.#pending.set(key, pending);
    }
    const token = await pending;
    return token === undefined ? undefined : `Bearer ${token}`;
  }

  /**
   * Takes in a 401's `WWW-Authenticate`; true when another try could succeed (a challenge to
   * answer, or a cached token to replace), false when there is nothing better to send.
   */
  async learn(header: string | undefined, scopes: string[], sent: string | undefined): Promise<boolean> {
    const challenge = pickChallenge(parseChallenges(header ?? ""));
    this.#tokens.delete(scopeKey(scopes));
    if (!challenge) return false;
    const changed = JSON.stringify(challenge) !== JSON.stringify(this.#challenge);
    this.#challenge = challenge;
    // a fresh token can help where a cached one expired early or lacked a scope
    if (challenge.scheme === "bearer" && challenge.realm !== undefined && !this.#sendTokenDirectly)
      return true;
    if (sent !== undefined && !changed) return false;
    return (await this.credential()) !== undefined;
  }

  /** The exit-80 error for a request the registry refused (`status` 401 or 403). */
  async rejection(operation: string, status: number, registryMessage: string): Promise<PkgError> {
    const credential = await this.credential();
    const detail = registryMessage ? ` (${registryMessage})` : "";
    if (credential) {
      const verb = status === 403 ? "denied access with" : "rejected";
      return new PkgError(
        ExitCode.AuthRejected,
        `${operation}: ${this.host} ${verb} the credentials from ${credential.source}${detail}`,
      );
    }
    const slug = credentialSlug(this.host);
    return new PkgError(
      ExitCode.AuthRejected,
      `${operation}: ${this.host} requires authentication${detail}; no credentials found (set PKG_AUTH_${slug}_USER and PKG_AUTH_${slug}_TOKEN, a netrc machine entry, or docker login)`,
    );
  }

  async #fetchToken(
    realm: string,
    service: string | undefined,
    scopes: string[],
    credential: Credential | undefined,
    operation: string,
  ): Promise<string | undefined> {
    let url: URL;
    try {
      url = new URL(realm);
    } catch {
      throw new PkgError(
        ExitCode.Unavailable,
        `${operation}: ${this.host} named an invalid token realm "${realm}"`,
      );
    }
    const where = `token server ${url.origin}${url.pathname}`;
    const send: RealmSender = async (request) => {
      try {
        return await this.send(request);
      } catch (error) {
        const message = `${where} unreachable (${(error as Error).message})`;
        if (classifyNetworkError(error) === "transient") throw new PkgError(ExitCode.Transient, message);
        throw new PkgError(ExitCode.Unavailable, `${operation}: ${message}`, { cause: error });
      }
    };
    const wanted = [...new Set(scopes)].sort();
    let response: RegistryResponse | undefined;
    if (credential?.kind === "token") {
      // an identity token: the OAuth2 refresh-token grant
      const form = new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: credential.token,
        client_id: "pkg",
      });
      if (service !== undefined) form.set("service", service);
      if (wanted.length > 0) form.set("scope", wanted.join(" "));
      response = await send({
        method: "POST",
        url,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: Buffer.from(form.toString()),
      });
      if (response.status === 404 || response.status === 405) {
        // the realm takes no OAuth2 form: GET with user and token as basic credentials, or,
        // without a user name, the token goes to the registry as the bearer token itself
        await drain(response);
        if (credential.username === undefined) {
          this.#sendTokenDirectly = true;
          return credential.token;
        }
        response = undefined;
      }
    }
    if (response === undefined) {
      if (service !== undefined) url.searchParams.set("service", service);
      for (const scope of wanted) url.searchParams.append("scope", scope);
      const headers: Record<string, string> = {};
      if (credential?.kind === "basic") {
        headers.authorization = basicAuthorization(credential.username, credential.password);
      } else if (credential?.username !== undefined) {
        headers.authorization = basicAuthorization(credential.username, credential.token);
      }
      response = await send({ method: "GET", url, headers });
    }
    const status = response.status;
    if (status !== 200) {
      await drain(response);
      if (isRetryableStatus(status)) throw new PkgError(ExitCode.Transient, `${where} answered ${status}`);
      const who = credential ? `the credentials from ${credential.source}` : "anonymous access";
      throw new PkgError(ExitCode.AuthRejected, `${operation}: ${where} refused ${who} (${status})`);
    }
    let parsed: { token?: unknown; access_token?: unknown; expires_in?: unknown };
    try {
      parsed = JSON.parse((await readBody(response, MAX_TOKEN_RESPONSE)).toString("utf8"));
    } catch (error) {
      throw new PkgError(ExitCode.Unavailable, `${operation}: ${where} sent an unreadable token response`, {
        cause: error,
      });
    }
    const token = typeof parsed.token === "string" ? parsed.token : parsed.access_token;
    if (typeof token !== "string" || token.length === 0) {
      throw new PkgError(ExitCode.Unavailable, `${operation}: ${where} sent no token`);
    }
    registerSecret(token);
    const lifetime =
      typeof parsed.expires_in === "number" && parsed.expires_in > 0
        ? parsed.expires_in
        : DEFAULT_TOKEN_LIFETIME_S;
    const margin = Math.min(10, lifetime / 2);
    this.#tokens.set(scopeKey(scopes), { value: token, expiresAt: this.now() + (lifetime - margin) * 1000 });
    return token;
  }
}
