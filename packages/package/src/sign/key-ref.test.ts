import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { serviceUrl } from "./endpoints.js";
import { parseKeyRef } from "./key-ref.js";
import { loadSigningKey, loadVerifyingKey } from "./keys.js";

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    return (error as { exitCode?: number; detail?: string; message: string }) ?? undefined;
  }
  return undefined;
};

describe("parseKeyRef", () => {
  it("reads paths, file:// and env:// references", () => {
    expect(parseKeyRef("keys/cosign.key")).toMatchObject({ form: "file", path: "keys/cosign.key" });
    expect(parseKeyRef("file:///run/k.pem")).toMatchObject({ form: "file", path: "/run/k.pem" });
    expect(parseKeyRef("env://PKG_SIGNING_KEY")).toMatchObject({ form: "env", name: "PKG_SIGNING_KEY" });
  });

  it("refuses KMS schemes (82, unsupported_key_backend), pasted key material and empty references (64)", () => {
    for (const scheme of ["awskms", "gcpkms", "azurekms", "hashivault", "k8s"]) {
      expect(codeOf(() => parseKeyRef(`${scheme}://x`))).toMatchObject({
        exitCode: 82,
        detail: "unsupported_key_backend",
      });
    }
    const pasted = codeOf(() => parseKeyRef("-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJvZHk=\n"));
    expect(pasted?.exitCode).toBe(64);
    expect(pasted?.message).not.toContain("c2VjcmV0LWJvZHk=");
    expect(codeOf(() => parseKeyRef("file://"))?.exitCode).toBe(64);
    expect(codeOf(() => parseKeyRef("env://1BAD"))?.exitCode).toBe(64);
  });
});

describe("serviceUrl", () => {
  it("takes https anywhere and http only on loopback", () => {
    expect(serviceUrl("https://fulcio.example/", "--ca-url")).toBe("https://fulcio.example");
    expect(serviceUrl("http://127.0.0.1:8080", "--log-url")).toBe("http://127.0.0.1:8080");
    expect(codeOf(() => serviceUrl("http://rekor.example", "--log-url"))?.message).toMatch(/https/);
    expect(codeOf(() => serviceUrl("https://u:p@x.example", "--log-url"))?.message).toMatch(/credentials/);
    expect(codeOf(() => serviceUrl("nope", "--log-url"))?.exitCode).toBe(64);
  });
});

describe("signing keys", () => {
  it("signs as cosign does with P-256 and Ed25519 keys, encrypted or not, and verifies with the public half", () => {
    for (const pair of [
      generateKeyPairSync("ec", { namedCurve: "prime256v1" }),
      generateKeyPairSync("ed25519"),
    ]) {
      const pem = pair.privateKey
        .export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: "pw-1234" })
        .toString();
      const key = loadSigningKey(pem, "pw-1234", "k");
      const payload = Buffer.from("payload");
      const verifier = loadVerifyingKey(key.publicKeyPem, "pub");
      expect(verifier.verify(payload, key.sign(payload))).toBe(true);
      expect(verifier.verify(Buffer.from("other"), key.sign(payload))).toBe(false);
      expect(codeOf(() => loadSigningKey(pem, undefined, "k"))?.exitCode).toBe(78);
      expect(codeOf(() => loadSigningKey(pem, "wrong-pw", "k"))?.exitCode).toBe(65);
    }
  });

  it("refuses key types cosign-compatible signing does not use here (RSA, P-384)", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    });
    expect(codeOf(() => loadSigningKey(rsa.toString(), undefined, "k"))?.message).toMatch(
      /rsa key; pkg signs with/,
    );
    const p384 = generateKeyPairSync("ec", { namedCurve: "secp384r1" }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    });
    expect(codeOf(() => loadSigningKey(p384.toString(), undefined, "k"))?.exitCode).toBe(65);
  });
});
