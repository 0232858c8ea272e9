import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isPkgError } from "@pkg/common";
import { importPKCS8, SignJWT } from "jose";
import { parseBasicAuthorization } from "./basic-credentials.js";
import { startHttpServer, type TestServer } from "./http-server.js";
import { selfSignedCert } from "./openssl.js";
import type { RegistryUser } from "./registry-user.js";
import type { TestCa } from "./test-ca.js";
import { grantAccess, parseScopes, tokenClaims } from "./token-claims.js";

const TOKEN_LIFETIME_SECONDS = 300;
const SIGNING_ALG = "ES256";

export interface TokenServer extends TestServer {
  /** The `realm` the registry puts in its challenge. */
  realm: string;
  service: string;
  issuer: string;
  /** The self-signed certificate of the signing key: the registry's `rootcertbundle`. */
  rootCertPath: string;
}

/** The DER certificate of a PEM, base64 (not base64url) as the `x5c` header wants it. */
function pemToX5c(pem: string): string {
  return pem
    .replace(/-----(BEGIN|END) CERTIFICATE-----/g, "")
    .replace(/\s+/g, "")
    .trim();
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  const challenge: Record<string, string> =
    status === 401 ? { "www-authenticate": 'Basic realm="pkg-testkit"' } : {};
  sendJson(res, status, { errors: [{ code, message }] }, challenge);
}

/**
 * A Docker token server: checks basic credentials against the one user, grants the requested
 * scopes to that user and nothing to anonymous callers, and signs ES256 JWTs whose `x5c` header
 * carries the signing certificate, which the registry verifies against its root bundle.
 */
export async function startTokenServer(options: {
  dir: string;
  user: RegistryUser;
  service: string;
  issuer: string;
  tls?: TestCa;
}): Promise<TokenServer> {
  const { user, service, issuer } = options;
  const signing = await selfSignedCert(options.dir, "token-signing", `/CN=${issuer}`, []);
  const [certPem, keyPem] = await Promise.all([
    readFile(signing.certPath, "utf8"),
    readFile(signing.keyPath, "utf8"),
  ]);
  const key = await importPKCS8(keyPem, SIGNING_ALG);
  const x5c = [pemToX5c(certPem)];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://token.invalid");
    if (url.pathname !== "/token") return sendError(res, 404, "NOT_FOUND", "only /token is served here");
    // The OAuth2 POST form is optional in the protocol; clients fall back to GET on 405.
    if (req.method !== "GET") return sendError(res, 405, "UNSUPPORTED", "use GET /token");
    const requestedService = url.searchParams.get("service");
    if (requestedService !== null && requestedService !== service) {
      return sendError(res, 400, "INVALID_REQUEST", `unknown service "${requestedService}"`);
    }
    const authorization = req.headers.authorization;
    const credentials = parseBasicAuthorization(authorization);
    if (authorization !== undefined) {
      const valid = credentials?.username === user.username && credentials.password === user.password;
      if (!valid) return sendError(res, 401, "UNAUTHORIZED", "invalid username or password");
    }
    let requested: ReturnType<typeof parseScopes>;
    try {
      requested = parseScopes(url.searchParams.getAll("scope"));
    } catch (error) {
      if (!isPkgError(error)) throw error;
      return sendError(res, 400, "INVALID_REQUEST", error.message);
    }
    const now = Math.floor(Date.now() / 1000);
    const claims = tokenClaims({
      issuer,
      service,
      subject: credentials?.username ?? "",
      access: grantAccess(requested, credentials !== undefined),
      nowSeconds: now,
      lifetimeSeconds: TOKEN_LIFETIME_SECONDS,
      jti: randomUUID(),
    });
    const token = await new SignJWT({ access: claims.access })
      .setProtectedHeader({ alg: SIGNING_ALG, typ: "JWT", x5c })
      .setIssuer(claims.iss)
      .setSubject(claims.sub)
      .setAudience(claims.aud)
      .setExpirationTime(claims.exp)
      .setNotBefore(claims.nbf)
      .setIssuedAt(claims.iat)
      .setJti(claims.jti)
      .sign(key);
    sendJson(res, 200, {
      token,
      access_token: token,
      expires_in: TOKEN_LIFETIME_SECONDS,
      issued_at: new Date(now * 1000).toISOString(),
    });
  }

  const server = await startHttpServer(handle, { tls: options.tls });
  return { ...server, realm: `${server.url}/token`, service, issuer, rootCertPath: signing.certPath };
}
