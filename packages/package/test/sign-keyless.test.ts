import { join } from "node:path";
import { MediaType, openRegistry, parseReference } from "@pkg/oci";
import {
  type RunningRegistry,
  type SigstoreServices,
  startRegistry,
  startSigstoreServices,
  type TempDir,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";
import { pushBundle, runCosign, writeKeyPair } from "./support/signing.js";

// Keyless mode against a Fulcio-protocol certificate authority and a Rekor-protocol transparency
// log on loopback (@sigstore/mock's services behind real HTTP servers), verified by pkg package
// verify against their trusted root with the exact identity.

const IDENTITY = "https://forge.example/acme/tools/.forge/workflows/mirror.yml@refs/heads/main";
const ISSUER = "https://token.forge.example";

let registry: RunningRegistry;
let services: SigstoreServices;
let work: TempDir;
let bundle: string;
let token: string;

beforeAll(async () => {
  [registry, services, work] = await Promise.all([
    startRegistry(),
    startSigstoreServices(),
    tempDir("pkg-sign-keyless-"),
  ]);
  await writeSampleTree(join(work.path, "tree"));
  bundle = join(work.path, "tool.tar.zst");
  expect((await runPkg(["package", "create", join(work.path, "tree"), "-o", bundle])).code).toBe(0);
  token = services.identityToken(IDENTITY, ISSUER);
});
afterAll(async () => {
  await registry?.stop();
  await services?.stop();
  await work?.remove();
});

const keyless = () => ["--ca-url", services.caUrl, "--log-url", services.logUrl];
const verifyArgs = (ref: string, identity = IDENTITY, issuer = ISSUER) => [
  "package",
  "verify",
  ref,
  "--certificate-identity",
  identity,
  "--certificate-oidc-issuer",
  issuer,
  "--trusted-root",
  services.trustedRootPath,
];

describe("keyless signing against a loopback certificate authority and transparency log", () => {
  it("push --sign gets a certificate and a log entry; verify checks chain, log, signature and identity", async () => {
    const repo = `${registry.host}/acme/keyless`;
    const pushed = await pushBundle(`${repo}:1.0.0`, bundle, ["--sign", ...keyless()], {
      PKG_IDENTITY_TOKEN: token,
    });
    expect(pushed.report.signatures?.map((s) => s.status)).toEqual(["completed", "completed"]);
    expect(services.ca.requests.some((r) => r.url === "/api/v2/signingCert")).toBe(true);
    expect(services.log.requests.filter((r) => r.url === "/api/v1/log/entries")).toHaveLength(2);
    for (const text of [pushed.stdout, pushed.stderr]) expect(text).not.toContain(token);

    const verified = await runPkg(verifyArgs(`${repo}:1.0.0`));
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stderr).toContain("(index)");

    // the real cosign accepts it too, offline, trusting the loopback CA, its CT log and the log
    const cosign = await runCosign(
      [
        "verify",
        "--experimental-oci11",
        "--offline",
        "--certificate-identity",
        IDENTITY,
        "--certificate-oidc-issuer",
        ISSUER,
        `${repo}:1.0.0`,
      ],
      work.path,
      {
        SIGSTORE_ROOT_FILE: services.caRootPath,
        SIGSTORE_CT_LOG_PUBLIC_KEY_FILE: services.ctLogPublicKeyPath,
        SIGSTORE_REKOR_PUBLIC_KEY: services.logPublicKeyPath,
      },
    );
    expect(cosign.code, cosign.stderr).toBe(0);
  });

  it("a wrong identity, a tampered manifest and a missing log entry each fail with their own message", async () => {
    const repo = `${registry.host}/acme/keyless-bad`;
    const signed = await pushBundle(`${repo}:1.0.0`, bundle, ["--sign", ...keyless()], {
      PKG_IDENTITY_TOKEN: token,
    });
    const ref = `${repo}@${signed.report.manifestDigest}`;

    const wrongIdentity = await runPkg(
      verifyArgs(ref, "https://forge.example/evil/fork/.forge/workflows/x.yml@refs/heads/main"),
    );
    expect(wrongIdentity.code).toBe(1);
    expect(wrongIdentity.stderr).toContain(
      `signed by ${IDENTITY} (issuer ${ISSUER}), not https://forge.example/evil`,
    );
    const wrongIssuer = await runPkg(verifyArgs(ref, IDENTITY, "https://other-issuer.example"));
    expect(wrongIssuer.code).toBe(1);
    expect(wrongIssuer.stderr).toMatch(/not .* \(issuer https:\/\/other-issuer\.example\)/);

    const target = openRegistry(parseReference(`${repo}:x`));
    const [referrer] = await target.referrers(signed.report.manifestDigest);
    const stored = referrer && (await target.fetchManifest(referrer.digest));
    if (!stored) throw new Error("the signature referrer is missing");
    const signature = JSON.parse(stored.bytes.toString());

    // the same package content under another manifest (an annotation added): the signature moved to it
    const original = await target.fetchManifest(signed.report.manifestDigest);
    const altered = JSON.parse(original?.bytes.toString() ?? "{}");
    altered.annotations = { "org.opencontainers.image.description": "tampered" };
    const alteredBytes = Buffer.from(JSON.stringify(altered));
    const alteredDescriptor = await target.pushManifest(alteredBytes, MediaType.ImageManifest);
    await target.pushManifest(
      Buffer.from(JSON.stringify({ ...signature, subject: alteredDescriptor })),
      MediaType.ImageManifest,
    );
    const tampered = await runPkg(verifyArgs(`${repo}@${alteredDescriptor.digest}`));
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/signs sha256:[0-9a-f]{64}, not this manifest/);

    // a signature whose log entry was stripped, on a manifest of its own
    const bare = { ...altered, annotations: { "org.opencontainers.image.description": "no log" } };
    const bareDescriptor = await target.pushManifest(
      Buffer.from(JSON.stringify(bare)),
      MediaType.ImageManifest,
    );
    const stripped = structuredClone(signature);
    delete stripped.layers[0].annotations["dev.sigstore.cosign/bundle"];
    await target.pushManifest(
      Buffer.from(JSON.stringify({ ...stripped, subject: bareDescriptor })),
      MediaType.ImageManifest,
    );
    const noLog = await runPkg(verifyArgs(`${repo}@${bareDescriptor.digest}`));
    expect(noLog.code).toBe(1);
    expect(noLog.stderr).toMatch(/has no transparency-log entry/);
  });

  it("a log entry the trusted root does not vouch for fails as such", async () => {
    const repo = `${registry.host}/acme/keyless-log`;
    const signed = await pushBundle(`${repo}:1.0.0`, bundle, ["--sign", ...keyless()], {
      PKG_IDENTITY_TOKEN: token,
    });
    const other = await startSigstoreServices();
    try {
      const result = await runPkg([
        ...verifyArgs(`${repo}@${signed.report.manifestDigest}`).slice(0, -1),
        other.trustedRootPath,
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/does not verify/);
    } finally {
      await other.stop();
    }
  });

  it("key mode with --log-upload records the signature in the log; cosign checks the entry against the log's key", async () => {
    const repo = `${registry.host}/acme/key-logged`;
    const keys = await writeKeyPair(work.path, "logged", "logged-pass-81");
    const pushed = await pushBundle(
      `${repo}:1.0.0`,
      bundle,
      ["--sign", "--key", keys.key, "--log-upload", "--log-url", services.logUrl],
      { PKG_KEY_PASSWORD: "logged-pass-81" },
    );
    expect(pushed.report.signatures?.map((s) => s.status)).toEqual(["completed", "completed"]);
    expect(
      services.log.requests.filter((r) => r.url === "/api/v1/log/entries").length,
    ).toBeGreaterThanOrEqual(2);
    // no --insecure-ignore-tlog: cosign verifies the signed entry timestamp offline with the log's key
    const cosign = await runCosign(
      ["verify", "--key", keys.pub, "--experimental-oci11", "--offline", `${repo}:1.0.0`],
      work.path,
      { SIGSTORE_REKOR_PUBLIC_KEY: services.logPublicKeyPath },
    );
    expect(cosign.code, cosign.stderr).toBe(0);
    expect(cosign.stderr).toContain("Existence of the claims in the transparency log was verified offline");
    expect((await runPkg(["package", "verify", `${repo}:1.0.0`, "--key", keys.pub])).code).toBe(0);
  });

  it("refuses to start without an identity token (78) before anything is pushed", async () => {
    const repo = `${registry.host}/acme/keyless-none`;
    const result = await runPkg([
      "package",
      "push",
      "-i",
      `${repo}:1.0.0`,
      "-p",
      "linux/amd64",
      "--sign",
      ...keyless(),
      bundle,
    ]);
    expect(result.code).toBe(78);
    expect(result.stderr).toMatch(/needs an OIDC identity token: set PKG_IDENTITY_TOKEN/);
    expect(await openRegistry(parseReference(`${repo}:x`)).listTags()).toEqual([]);
  });
});
