import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { extraCasFromEnv, pemCertificates } from "../src/tls-ca.js";

const pem = (name: string) => `-----BEGIN CERTIFICATE-----\n${name}\n-----END CERTIFICATE-----`;

let dir: TempDir;
beforeEach(async () => {
  dir = await tempDir("net-tls-ca-");
});
afterEach(async () => {
  await dir.remove();
});

describe("extra CAs", () => {
  test("every PEM block of a bundle, other text ignored", () => {
    expect(pemCertificates(`# comment\n${pem("a")}\nnoise\n${pem("b")}\n`)).toEqual([pem("a"), pem("b")]);
    expect(pemCertificates("no certificate here")).toEqual([]);
  });

  test("PKG_EXTRA_CA_CERTS, SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, then SSL_CERT_DIR (sorted, subdirectories skipped)", async () => {
    const file = (name: string, text: string) => {
      const path = join(dir.path, name);
      return writeFile(path, text).then(() => path);
    };
    const certs = join(dir.path, "certs");
    await mkdir(join(certs, "sub"), { recursive: true });
    await writeFile(join(certs, "b.pem"), pem("dir-b"));
    await writeFile(join(certs, "a.pem"), pem("dir-a"));
    const env = {
      PKG_EXTRA_CA_CERTS: await file("pkg.pem", pem("pkg")),
      SSL_CERT_FILE: await file("bundle.pem", `${pem("bundle-1")}\n${pem("bundle-2")}`),
      NODE_EXTRA_CA_CERTS: await file("node.pem", pem("node")),
      SSL_CERT_DIR: certs,
    };
    expect(await extraCasFromEnv(env)).toEqual([
      pem("pkg"),
      pem("bundle-1"),
      pem("bundle-2"),
      pem("node"),
      pem("dir-a"),
      pem("dir-b"),
    ]);
    expect(await extraCasFromEnv({})).toEqual([]);
  });

  test("an unreadable file named by a variable is a configuration error (exit 78) naming it", async () => {
    const missing = join(dir.path, "missing.pem");
    const failure = extraCasFromEnv({ SSL_CERT_FILE: missing });
    await expect(failure).rejects.toMatchObject({ exitCode: 78 });
    await expect(failure).rejects.toThrow(`SSL_CERT_FILE=${missing}: cannot read`);
  });
});
