import { randomBytes } from "node:crypto";
import { startHttpServer, type TestServer } from "@pkg/testkit";
import { afterAll, beforeAll, expect, test } from "vitest";
import { sha256Digest } from "../src/digest.js";
import { openRegistry } from "../src/registry.js";
import { readAll } from "./support/helpers.js";

// A registry that hands blob downloads to a storage host by redirect, as registries backed by
// object storage do; both are loopback servers on different ports (so different origins).
const blob = randomBytes(50_000);
const digest = sha256Digest(blob);
const authorization = `Basic ${Buffer.from("user:redirect-secret").toString("base64")}`;
let storage: TestServer;
let registry: TestServer;

beforeAll(async () => {
  storage = await startHttpServer((req, res) => {
    const corrupt = req.url?.startsWith("/corrupt");
    res.writeHead(200, { "content-length": String(blob.length) });
    res.end(corrupt ? randomBytes(blob.length) : blob);
  });
  registry = await startHttpServer((req, res) => {
    if (req.headers.authorization !== authorization) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="test"' });
      res.end();
      return;
    }
    const corrupt = req.url?.startsWith("/v2/bad/");
    res.writeHead(307, { location: `${storage.url}/${corrupt ? "corrupt" : "data"}?signature=abc` });
    res.end();
  });
});
afterAll(async () => {
  await registry?.stop();
  await storage?.stop();
});

test("a redirected blob download is followed without sending Authorization to the other host", async () => {
  const credential = {
    kind: "basic" as const,
    username: "user",
    password: "redirect-secret",
    source: "test",
  };
  const repo = openRegistry(`${registry.host}/ns/tool`, { credential });
  expect((await readAll(await repo.fetchBlob(digest, blob.length))).equals(blob)).toBe(true);
  expect(storage.requests.length).toBeGreaterThan(0);
  expect(storage.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
  expect(registry.requests.some((r) => r.headers.authorization === authorization)).toBe(true);

  const bad = openRegistry(`${registry.host}/bad/tool`, { credential });
  await expect(readAll(await bad.fetchBlob(digest))).rejects.toMatchObject({ exitCode: 65 });
});
