import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { credentialSlug } from "@pkg/net";
import { type RunningRegistry, startRegistry } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openRegistry } from "../src/registry.js";
import { MediaType } from "../src/types.js";
import { bufferSource, imageManifest, readAll } from "./support/helpers.js";

const fast = { retry: { firstDelayMs: 10 } };

function envFor(host: string, user: string, token: string, type?: string): NodeJS.ProcessEnv {
  const prefix = `PKG_AUTH_${credentialSlug(host)}_`;
  return {
    HOME: "/nonexistent",
    [`${prefix}USER`]: user,
    [`${prefix}TOKEN`]: token,
    ...(type ? { [`${prefix}TYPE`]: type } : {}),
  };
}

/** Pushes a blob and a manifest, reads both back: the whole write and read path under auth. */
async function roundTrip(host: string, repository: string, env: NodeJS.ProcessEnv, mountFrom?: string) {
  const repo = openRegistry(`${host}/${repository}`, { ...fast, env });
  const config = bufferSource(Buffer.from('{"a":1}'));
  const layer = bufferSource(randomBytes(2000));
  await repo.pushBlob(config);
  const outcome = await repo.pushBlob(layer, mountFrom ? { mountFrom } : {});
  const descriptor = await repo.pushManifest(imageManifest(config, [layer]), MediaType.ImageManifest, "v1");
  expect((await repo.fetchManifest("v1"))?.descriptor.digest).toBe(descriptor.digest);
  expect((await readAll(await repo.fetchBlob(layer.digest))).length).toBe(2000);
  expect(await repo.listTags()).toEqual(["v1"]);
  return { repo, layer, outcome };
}

async function rejection(promise: Promise<unknown>): Promise<Error & { exitCode: number }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { exitCode: number };
  }
  throw new Error("expected a failure");
}

describe("basic auth (htpasswd)", () => {
  let registry: RunningRegistry;
  beforeAll(async () => {
    registry = await startRegistry({ auth: "basic" });
  });
  afterAll(async () => {
    await registry?.stop();
  });

  test("credentials from the environment ladder work for push and pull", async () => {
    const user = registry.user as { username: string; password: string };
    await roundTrip(registry.host, "basic/tool", envFor(registry.host, user.username, user.password));
  });

  test("wrong credentials exit 80 naming registry and operation, never the secret", async () => {
    const secret = "wrong-password-123456";
    const repo = openRegistry(`${registry.host}/basic/tool`, {
      ...fast,
      env: envFor(registry.host, "pkg-test", secret),
    });
    const error = await rejection(repo.fetchManifest("v1"));
    expect(error.exitCode).toBe(80);
    expect(error.message).toContain(`${registry.host}/basic/tool`);
    expect(error.message).toContain(`PKG_AUTH_${credentialSlug(registry.host)}_*`);
    expect(error.message).not.toContain(secret);
  });

  test("no credentials: exit 80 saying how to provide them", async () => {
    const repo = openRegistry(`${registry.host}/basic/tool`, { ...fast, env: { HOME: "/nonexistent" } });
    const error = await rejection(repo.listTags());
    expect(error.exitCode).toBe(80);
    expect(error.message).toMatch(/requires authentication.*PKG_AUTH_127_0_0_1_\d+_USER/);
  });
});

describe("token auth", () => {
  let registry: RunningRegistry;
  beforeAll(async () => {
    registry = await startRegistry({ auth: "token" });
  });
  afterAll(async () => {
    await registry?.stop();
  });

  test("tokens per scope set; a mount asks for pull on the source repository", async () => {
    const user = registry.user as { username: string; password: string };
    const env = envFor(registry.host, user.username, user.password);
    const { layer } = await roundTrip(registry.host, "tok/source", env);
    const destination = openRegistry(`${registry.host}/tok/destination`, { ...fast, env });
    expect(await destination.pushBlob(layer, { mountFrom: "tok/source" })).toBe("mounted");
    const scopes = registry.tokenRequests.map((r) =>
      new URL(r.url, "http://x").searchParams.getAll("scope").join(" "),
    );
    expect(scopes).toContain("repository:tok/destination:pull,push repository:tok/source:pull");
    // the token of a scope set is reused, not fetched per request
    expect(registry.tokenRequests.length).toBeLessThan(8);
  });

  test("anonymous pull of a private repository and wrong credentials both exit 80 without the secret", async () => {
    const anonymous = openRegistry(`${registry.host}/tok/source`, { ...fast, env: { HOME: "/nonexistent" } });
    expect((await rejection(anonymous.fetchManifest("v1"))).exitCode).toBe(80);
    const secret = "not-the-password-987";
    const wrong = openRegistry(`${registry.host}/tok/source`, {
      ...fast,
      env: envFor(registry.host, "pkg-test", secret),
    });
    const error = await rejection(wrong.fetchManifest("v1"));
    expect(error.exitCode).toBe(80);
    expect(error.message).toMatch(/token server .* refused the credentials/);
    expect(error.message).not.toContain(secret);
    const bearer = openRegistry(`${registry.host}/tok/source`, {
      ...fast,
      env: envFor(registry.host, "", secret, "bearer"),
    });
    const bearerError = await rejection(bearer.fetchManifest("v1"));
    expect(bearerError.exitCode).toBe(80);
    expect(bearerError.message).not.toContain(secret);
  });
});

describe("unreachable registry", () => {
  test("a closed port exits 69 at once", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const repo = openRegistry(`127.0.0.1:${port}/gone/tool`, { env: {} });
    const error = await rejection(repo.pushBlob(bufferSource(Buffer.from("x"))));
    expect(error.exitCode).toBe(69);
    expect(error.message).toContain(`127.0.0.1:${port}/gone/tool`);
    expect(error.message).toContain("ECONNREFUSED");
  });

  test("an unknown host name exits 69", async () => {
    const repo = openRegistry("no-such-host.invalid/x/y", { env: {} });
    expect((await rejection(repo.listTags())).exitCode).toBe(69);
  });
});
