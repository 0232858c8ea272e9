import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  createTestCa,
  type RunningRegistry,
  startRegistry,
  type TempDir,
  type TestCa,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openRegistry } from "../src/registry.js";
import { bufferSource, readAll } from "./support/helpers.js";

let ca: TestCa;
let registry: RunningRegistry;
let tokenRegistry: RunningRegistry;
let dir: TempDir;

beforeAll(async () => {
  ca = await createTestCa();
  dir = await tempDir("oci-tls-");
  registry = await startRegistry({ auth: "none", tls: ca });
  tokenRegistry = await startRegistry({ auth: "token", tls: ca });
});
afterAll(async () => {
  await registry?.stop();
  await tokenRegistry?.stop();
  await ca?.remove();
  await dir?.remove();
});

async function pushAndRead(host: string, options: Parameters<typeof openRegistry>[1]) {
  const repo = openRegistry(`${host}/tls/tool`, { retry: { firstDelayMs: 5 }, ...options });
  const blob = bufferSource(randomBytes(5000));
  await repo.pushBlob(blob);
  expect((await readAll(await repo.fetchBlob(blob.digest))).equals(blob.open())).toBe(true);
}

test("a TLS registry on loopback is spoken to in HTTPS, trusting a CA given as an option", async () => {
  expect(registry.url.startsWith("https://")).toBe(true);
  await pushAndRead(registry.host, { ca: ca.certPem, env: {} });
});

test("the CA can come from SSL_CERT_FILE, PKG_EXTRA_CA_CERTS or SSL_CERT_DIR (of the client's env)", async () => {
  await pushAndRead(registry.host, { env: { SSL_CERT_FILE: ca.certPath } });
  await pushAndRead(registry.host, { env: { PKG_EXTRA_CA_CERTS: ca.certPath } });
  const certDir = join(dir.path, "certs");
  await mkdir(certDir);
  await writeFile(join(certDir, "test-ca.pem"), ca.certPem);
  await pushAndRead(registry.host, { env: { SSL_CERT_DIR: certDir } });
});

test("token auth over TLS: the realm is trusted through the same CA", async () => {
  const user = tokenRegistry.user as { username: string; password: string };
  await pushAndRead(tokenRegistry.host, {
    env: { PKG_EXTRA_CA_CERTS: ca.certPath },
    credential: { kind: "basic", username: user.username, password: user.password, source: "test" },
  });
});

test("an untrusted certificate is exit 69, not retried and not downgraded to HTTP", async () => {
  const repo = openRegistry(`${registry.host}/tls/tool`, { env: {} });
  const failure = repo.listTags();
  await expect(failure).rejects.toMatchObject({ exitCode: 69 });
  await expect(failure).rejects.toThrow(/certificate|CERT/i);
});
