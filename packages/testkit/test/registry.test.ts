import { existsSync } from "node:fs";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestCa, type RunningRegistry, sendRequest, startRegistry, type TestCa } from "../src/index.js";

function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function fetchToken(
  registry: RunningRegistry,
  scopes: string[],
  authorization?: string,
): Promise<string> {
  const query = new URLSearchParams({ service: registry.tokenService ?? "" });
  for (const scope of scopes) query.append("scope", scope);
  const headers = authorization ? { authorization } : {};
  const response = await sendRequest(`${registry.tokenRealm}?${query}`, { headers });
  expect(response.status).toBe(200);
  const body = JSON.parse(response.body.toString()) as {
    token: string;
    access_token: string;
    expires_in: number;
  };
  expect(body.access_token).toBe(body.token);
  expect(body.expires_in).toBe(300);
  return body.token;
}

describe("startRegistry, anonymous", () => {
  let registry: RunningRegistry;
  beforeAll(async () => {
    registry = await startRegistry();
  });
  afterAll(async () => {
    await registry?.stop();
  });

  it("answers /v2/ without credentials and accepts an anonymous upload", async () => {
    expect(registry.host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(registry.url).toBe(`http://${registry.host}`);
    expect(registry.user).toBeUndefined();
    const root = await sendRequest(`${registry.url}/v2/`);
    expect(root.status).toBe(200);
    expect(root.headers["docker-distribution-api-version"]).toBe("registry/2.0");
    const upload = await sendRequest(`${registry.url}/v2/x/y/blobs/uploads/`, { method: "POST" });
    expect(upload.status).toBe(202);
  });
});

describe("startRegistry, basic auth", () => {
  let registry: RunningRegistry;
  beforeAll(async () => {
    registry = await startRegistry({ auth: "basic", user: { username: "alice", password: "s3cret-pass" } });
  });
  afterAll(async () => {
    await registry?.stop();
  });

  it("rejects anonymous and wrong credentials, accepts the user", async () => {
    const anonymous = await sendRequest(`${registry.url}/v2/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["www-authenticate"]).toMatch(/^Basic realm=/);
    expect(
      (await sendRequest(`${registry.url}/v2/`, { headers: { authorization: basic("alice", "nope") } }))
        .status,
    ).toBe(401);
    const ok = await sendRequest(`${registry.url}/v2/`, {
      headers: { authorization: basic("alice", "s3cret-pass") },
    });
    expect(ok.status).toBe(200);
    expect(registry.user).toEqual({ username: "alice", password: "s3cret-pass" });
    expect(registry.tokenRequests).toEqual([]);
  });
});

describe("startRegistry, token auth", () => {
  let registry: RunningRegistry;
  let authorization: string;
  beforeAll(async () => {
    registry = await startRegistry({ auth: "token" });
    authorization = basic(registry.user?.username ?? "", registry.user?.password ?? "");
  });
  afterAll(async () => {
    await registry?.stop();
  });

  it("challenges anonymous requests with the token realm and service", async () => {
    const anonymous = await sendRequest(`${registry.url}/v2/`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers["www-authenticate"]).toBe(
      `Bearer realm="${registry.tokenRealm}",service="${registry.tokenService}"`,
    );
  });

  it("issues tokens the registry accepts for the catalog and for a push", async () => {
    const token = await fetchToken(
      registry,
      ["registry:catalog:*", "repository:x/y:pull,push"],
      authorization,
    );
    const bearer = { authorization: `Bearer ${token}` };
    const catalog = await sendRequest(`${registry.url}/v2/_catalog`, { headers: bearer });
    expect(catalog.status).toBe(200);
    expect(JSON.parse(catalog.body.toString())).toEqual({ repositories: [] });
    const upload = await sendRequest(`${registry.url}/v2/x/y/blobs/uploads/`, {
      method: "POST",
      headers: bearer,
    });
    expect(upload.status).toBe(202);
    const other = await sendRequest(`${registry.url}/v2/other/repo/blobs/uploads/`, {
      method: "POST",
      headers: bearer,
    });
    expect(other.status).toBe(401);
  });

  it("signs JWTs carrying the protocol's claims and the x5c chain", async () => {
    const token = await fetchToken(registry, ["repository:x/y:pull"], authorization);
    const header = decodeProtectedHeader(token);
    expect(header.alg).toBe("ES256");
    expect(header.x5c).toHaveLength(1);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      sub: registry.user?.username,
      aud: registry.tokenService,
      access: [{ type: "repository", name: "x/y", actions: ["pull"] }],
    });
    expect(typeof claims.iss).toBe("string");
    expect(typeof claims.jti).toBe("string");
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(300);
    expect(claims.nbf).toBeLessThanOrEqual(claims.iat ?? 0);
  });

  it("gives anonymous callers a token with no access, so an anonymous push is refused", async () => {
    const token = await fetchToken(registry, ["repository:x/y:pull,push"]);
    expect(decodeJwt(token).access).toEqual([]);
    const upload = await sendRequest(`${registry.url}/v2/x/y/blobs/uploads/`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(upload.status).toBe(401);
  });

  it("the registry rejects a token whose claims were altered after signing", async () => {
    const token = await fetchToken(registry, ["repository:x/y:pull,push"]);
    const [header, , signature] = token.split(".");
    const forgedClaims = {
      ...decodeJwt(token),
      access: [{ type: "repository", name: "x/y", actions: ["pull", "push"] }],
    };
    const forged = `${header}.${Buffer.from(JSON.stringify(forgedClaims)).toString("base64url")}.${signature}`;
    const upload = await sendRequest(`${registry.url}/v2/x/y/blobs/uploads/`, {
      method: "POST",
      headers: { authorization: `Bearer ${forged}` },
    });
    expect(upload.status).toBe(401);
  });

  it("the token server refuses a wrong password with 401 and records every request", async () => {
    const before = registry.tokenRequests.length;
    const query = `service=${registry.tokenService}&scope=repository:x/y:pull`;
    const refused = await sendRequest(`${registry.tokenRealm}?${query}`, {
      headers: { authorization: basic(registry.user?.username ?? "", "wrong") },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers["www-authenticate"]).toMatch(/^Basic /);
    const recorded = registry.tokenRequests.slice(before);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ method: "GET", url: `/token?${query}`, status: 401 });
  });
});

describe("startRegistry lifecycle", () => {
  it("stop() kills the process by PID, removes its storage, and can be called twice", async () => {
    const registry = await startRegistry({ auth: "basic" });
    expect(isAlive(registry.pid)).toBe(true);
    expect(existsSync(registry.storageDir)).toBe(true);
    await registry.stop();
    expect(isAlive(registry.pid)).toBe(false);
    expect(existsSync(registry.storageDir)).toBe(false);
    await expect(sendRequest(`${registry.url}/v2/`)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await registry.stop();
  });

  it("several registries run side by side on distinct ports", async () => {
    const registries = await Promise.all([
      startRegistry(),
      startRegistry(),
      startRegistry({ auth: "token" }),
    ]);
    try {
      expect(new Set(registries.map((r) => r.host)).size).toBe(3);
      const statuses = await Promise.all(
        registries.map(async (r) => (await sendRequest(`${r.url}/v2/`)).status),
      );
      expect(statuses).toEqual([200, 200, 401]);
    } finally {
      await Promise.all(registries.map((r) => r.stop()));
    }
  });
});

describe("startRegistry with TLS", () => {
  let ca: TestCa;
  beforeAll(async () => {
    ca = await createTestCa();
  });
  afterAll(async () => {
    await ca?.remove();
  });

  it("serves https with a certificate from the CA, token server included", async () => {
    const registry = await startRegistry({ auth: "token", tls: ca });
    try {
      expect(registry.url).toBe(`https://${registry.host}`);
      expect(registry.tokenRealm).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/token$/);
      expect((await sendRequest(`${registry.url}/v2/`, { ca: ca.certPem })).status).toBe(401);
      await expect(sendRequest(`${registry.url}/v2/`)).rejects.toThrow(/certificate/i);
      const user = registry.user ?? { username: "", password: "" };
      const query = `service=${registry.tokenService}&scope=registry:catalog:*`;
      const tokenResponse = await sendRequest(`${registry.tokenRealm}?${query}`, {
        ca: ca.certPem,
        headers: { authorization: basic(user.username, user.password) },
      });
      const { token } = JSON.parse(tokenResponse.body.toString()) as { token: string };
      const catalog = await sendRequest(`${registry.url}/v2/_catalog`, {
        ca: ca.certPem,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(catalog.status).toBe(200);
    } finally {
      await registry.stop();
    }
  });

  it("fails with the tail of the registry's log when the process exits early", async () => {
    const brokenCa: TestCa = {
      ...ca,
      issue: async (names) => ({ ...(await ca.issue(names)), keyPath: "/nonexistent/pkg-test.key" }),
    };
    await expect(startRegistry({ tls: brokenCa })).rejects.toThrow(
      /docker-registry exited before it was ready: .*nonexistent\/pkg-test\.key/,
    );
  });
});
