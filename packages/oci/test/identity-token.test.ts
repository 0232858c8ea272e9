import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type RunningRegistry,
  startHttpServer,
  startRegistry,
  type TempDir,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openRegistry } from "../src/registry.js";
import { bufferSource } from "./support/helpers.js";

let dir: TempDir;
beforeAll(async () => {
  dir = await tempDir("oci-idtoken-");
});
afterAll(async () => {
  await dir?.remove();
});

async function dockerConfig(name: string, auths: Record<string, unknown>): Promise<string> {
  const path = join(dir.path, name);
  await mkdir(path);
  await writeFile(join(path, "config.json"), JSON.stringify({ auths }));
  return path;
}

test("an identity token is exchanged with the OAuth2 refresh-token grant", async () => {
  const identity = "identity-token-abcdef";
  const issued = "access-token-123456";
  const forms: URLSearchParams[] = [];
  let realm: TestServer | undefined;
  let registry: TestServer | undefined;
  try {
    realm = await startHttpServer(async (req, res) => {
      let body = "";
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      forms.push(form);
      const ok =
        req.method === "POST" &&
        form.get("grant_type") === "refresh_token" &&
        form.get("refresh_token") === identity;
      res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
      res.end(ok ? JSON.stringify({ access_token: issued, expires_in: 300 }) : "{}");
    });
    const realmUrl = `${realm.url}/token`;
    registry = await startHttpServer((req, res) => {
      if (req.headers.authorization !== `Bearer ${issued}`) {
        res.writeHead(401, {
          "www-authenticate": `Bearer realm="${realmUrl}",service="svc",scope="repository:a/b:pull"`,
        });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ name: "a/b", tags: ["one"] }));
    });
    const config = await dockerConfig("oauth", { [registry.host]: { identitytoken: identity } });
    const repo = openRegistry(`${registry.host}/a/b`, { env: { DOCKER_CONFIG: config } });
    expect(await repo.listTags()).toEqual(["one"]);
    expect(forms[0]?.get("service")).toBe("svc");
    expect(forms[0]?.get("scope")).toBe("repository:a/b:pull");
    expect(await repo.listTags()).toEqual(["one"]);
    expect(forms.length).toBe(1);
  } finally {
    await realm?.stop();
    await registry?.stop();
  }
});

test("a realm without the OAuth2 form gets user and identity token as basic credentials", async () => {
  let registry: RunningRegistry | undefined;
  try {
    registry = await startRegistry({ auth: "token" });
    const user = registry.user as { username: string; password: string };
    const auth = Buffer.from(`${user.username}:`).toString("base64");
    const config = await dockerConfig("fallback", {
      [`https://${registry.host}`]: { auth, identitytoken: user.password },
    });
    const repo = openRegistry(`${registry.host}/id/tool`, {
      env: { DOCKER_CONFIG: config },
      retry: { firstDelayMs: 5 },
    });
    expect(await repo.pushBlob(bufferSource(Buffer.from("identity")))).toBe("uploaded");
    expect(registry.tokenRequests.some((r) => r.method === "POST" && r.status === 405)).toBe(true);
  } finally {
    await registry?.stop();
  }
});
