import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { MediaType, openRegistry, parseReference } from "@pkg/oci";
import {
  type RunningReferrersRegistry,
  type RunningRegistry,
  startReferrersRegistry,
  startRegistry,
  type TempDir,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";
import { pushBundle, repositoryTags, runCosign, writeKeyPair } from "./support/signing.js";

// Key mode end to end, against CNCF distribution 2.8 (no referrers API: signatures go to the
// sha256-<hex> fallback tag) and a registry with the referrers API (no fallback tag), checked by
// the real cosign both ways.
//
// cosign's flags for a loopback registry and a key without a log: --insecure-ignore-tlog (key mode
// uploads nothing to a log unless asked), --experimental-oci11 (cosign finds signatures stored as
// OCI 1.1 referrers only with it; its default looks at sha256-<hex>.sig alone). No TLS flag is
// needed: cosign talks plain HTTP to 127.0.0.1 by itself.

const PASSPHRASE = "pass-Vq93-secret-phrase";
const COSIGN_PASSWORD = "cosign-pass-7781";

let work: TempDir;
let bundle: string;
let bundleB: string;
let keys: Awaited<ReturnType<typeof writeKeyPair>>;
let other: Awaited<ReturnType<typeof writeKeyPair>>;
let cosignHome: string;

beforeAll(async () => {
  work = await tempDir("pkg-sign-key-");
  await writeSampleTree(join(work.path, "tree"));
  bundle = join(work.path, "tool.tar.zst");
  const created = await runPkg(["package", "create", join(work.path, "tree"), "-o", bundle]);
  expect(created.code, created.stderr).toBe(0);
  await writeSampleTree(join(work.path, "tree-b"), "b");
  bundleB = join(work.path, "tool-b.tar.zst");
  expect((await runPkg(["package", "create", join(work.path, "tree-b"), "-o", bundleB])).code).toBe(0);
  keys = await writeKeyPair(work.path, "signing", PASSPHRASE);
  other = await writeKeyPair(work.path, "other", PASSPHRASE);
  cosignHome = join(work.path, "cosign-home");
  await mkdir(cosignHome);
  const made = await runCosign(["generate-key-pair"], cosignHome, { COSIGN_PASSWORD });
  expect(made.code, made.stderr).toBe(0);
});
afterAll(async () => {
  await work?.remove();
});

const flavours = [
  { name: "CNCF distribution (fallback tags)", start: startRegistry, referrersApi: false },
  { name: "a registry with the referrers API", start: startReferrersRegistry, referrersApi: true },
] as const;

describe.each(flavours)("key mode against $name", ({ start, referrersApi }) => {
  let registry: RunningRegistry | RunningReferrersRegistry;
  beforeAll(async () => {
    registry = await start();
  });
  afterAll(async () => {
    await registry?.stop();
  });

  it("push --sign signs the manifest and every tag's index; pkg and cosign verify them", async () => {
    const repo = `${registry.host}/acme/tool`;
    const { report } = await pushBundle(
      `${repo}:1.2.3_20250101120000`,
      bundle,
      ["--cascade", "--sign", "--key", `file://${keys.key}`, "--no-log-upload"],
      { PKG_KEY_PASSWORD: PASSPHRASE },
    );
    expect(report.tags).toEqual(["1.2.3_20250101120000", "1.2.3", "1.2", "1", "latest"]);
    // the manifest, and the one index all five tags hold
    expect(report.signatures?.map((s) => s.status)).toEqual(["completed", "completed"]);
    const fallback = (await repositoryTags(repo)).filter((t) => t.startsWith("sha256-"));
    expect(fallback.length).toBe(referrersApi ? 0 : 2);

    const verified = await runPkg(["package", "verify", `${repo}:1.2`, "--key", keys.pub]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stderr).toContain("(index)");
    expect(verified.stderr).toContain("(linux/amd64)");

    for (const ref of [`${repo}:latest`, `${repo}@${report.manifestDigest}`]) {
      const cosign = await runCosign(
        ["verify", "--key", keys.pub, "--experimental-oci11", "--insecure-ignore-tlog", ref],
        cosignHome,
      );
      expect(cosign.code, cosign.stderr).toBe(0);
      expect(cosign.stdout).toContain(ref.includes("@") ? report.manifestDigest : report.indexDigest);
    }
  });

  it("a signature cosign makes verifies with pkg package verify (its .sig tag, and its OCI 1.1 mode)", async () => {
    const repo = `${registry.host}/acme/by-cosign`;
    const { report } = await pushBundle(`${repo}:2.0.0`, bundle);
    const ref = `${repo}@${report.manifestDigest}`;
    const unsigned = await runPkg(["package", "verify", ref, "--key", join(cosignHome, "cosign.pub")]);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toMatch(/no signature/);

    const mode = referrersApi ? ["--registry-referrers-mode=oci-1-1"] : [];
    const signed = await runCosign(
      ["sign", "--key", "cosign.key", "--tlog-upload=false", "-y", ...mode, ref],
      cosignHome,
      { COSIGN_PASSWORD, COSIGN_EXPERIMENTAL: "1" },
    );
    expect(signed.code, signed.stderr).toBe(0);
    const verified = await runPkg(["package", "verify", ref, "--key", join(cosignHome, "cosign.pub")]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stderr).toContain(referrersApi ? "(referrer sha256:" : ".sig)");
  });

  it("fails, with its own line, for another key, an unsigned tag and a manifest a signature was moved to", async () => {
    const repo = `${registry.host}/acme/tamper`;
    const signedPush = await pushBundle(`${repo}:1.0.0`, bundle, ["--sign", "--key", keys.key], {
      PKG_KEY_PASSWORD: PASSPHRASE,
    });
    const wrongKey = await runPkg(["package", "verify", `${repo}:1.0.0`, "--key", other.pub]);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/does not verify with the key/);

    // another package whose manifest differs; its signature copied from the first (subject moved)
    const second = await pushBundle(`${repo}:1.0.1`, bundleB);
    const none = await runPkg(["package", "verify", `${repo}:1.0.1`, "--key", keys.pub]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/no signature/);

    const target = openRegistry(parseReference(`${repo}:x`));
    const [referrer] = await target.referrers(signedPush.report.manifestDigest);
    const stored = referrer && (await target.fetchManifest(referrer.digest));
    if (!stored) throw new Error("the signature referrer is missing");
    const moved = JSON.parse(stored.bytes.toString());
    const b = await target.fetchManifest(second.report.manifestDigest);
    moved.subject = {
      mediaType: MediaType.ImageManifest,
      digest: second.report.manifestDigest,
      size: b?.bytes.length,
    };
    await target.pushManifest(Buffer.from(JSON.stringify(moved)), MediaType.ImageManifest);
    const tampered = await runPkg([
      "package",
      "verify",
      `${repo}:1.0.1`,
      "--platform",
      "linux/amd64",
      "--key",
      keys.pub,
    ]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/signs sha256:[0-9a-f]{64}, not this manifest/);
  });
});

describe("key references and secrets", () => {
  let registry: RunningRegistry;
  beforeAll(async () => {
    registry = await startRegistry();
  });
  afterAll(async () => {
    await registry?.stop();
  });

  it("takes the key from an environment variable; the key and the passphrase appear in no output", async () => {
    const repo = `${registry.host}/acme/env-key`;
    const env = { MY_SIGNING_KEY: keys.privatePem, PKG_KEY_PASSWORD: PASSPHRASE };
    const args = ["--sign", "--key", "env://MY_SIGNING_KEY"];
    const pushed = await pushBundle(`${repo}:1.0.0`, bundle, args, env);
    const body = keys.privatePem.split("\n")[1] ?? "";
    for (const text of [pushed.stdout, pushed.stderr, args.join(" ")]) {
      expect(text).not.toContain(PASSPHRASE);
      expect(text).not.toContain(body);
    }
    // a wrong passphrase and an unset one: refused before anything is pushed, saying so without either value
    const wrong = await runPkg(
      ["package", "push", "-i", `${repo}:1.0.1`, "-p", "linux/amd64", ...args, bundle],
      { env: { ...env, PKG_KEY_PASSWORD: "wrong-Passphrase-123" } },
    );
    expect(wrong.code).toBe(65);
    expect(wrong.stderr).toMatch(/cannot be read as a private key with PKG_KEY_PASSWORD/);
    expect(`${wrong.stdout}${wrong.stderr}`).not.toContain("wrong-Passphrase-123");
    expect(`${wrong.stdout}${wrong.stderr}`).not.toContain(body);
    const unset = await runPkg(
      ["package", "push", "-i", `${repo}:1.0.1`, "-p", "linux/amd64", ...args, bundle],
      {
        env: { MY_SIGNING_KEY: keys.privatePem },
      },
    );
    expect(unset.code).toBe(78);
    expect(unset.stderr).toMatch(/encrypted and PKG_KEY_PASSWORD is unset/);
    const missing = await runPkg(["package", "sign", `${repo}:1.0.0`, "--key", "env://NO_SUCH_KEY_VAR"]);
    expect(missing.code).toBe(78);
    expect(missing.stderr).toMatch(/NO_SUCH_KEY_VAR is unset or empty/);
    expect(await repositoryTags(repo)).not.toContain("1.0.1");
  });

  it("refuses key-management-service keys (82, unsupported_key_backend) and key material on the command line", async () => {
    const kms = await runPkg([
      "package",
      "sign",
      `${registry.host}/acme/x:1`,
      "--key",
      "awskms://alias/k",
      "--format",
      "json",
    ]);
    expect(kms.code).toBe(82);
    expect(kms.stderr).toMatch(/awskms:\/\/ keys are not supported/);
    const pasted = await runPkg(["package", "sign", `${registry.host}/acme/x:1`, "--key", keys.privatePem]);
    expect(pasted.code).toBe(64);
    expect(pasted.stderr).not.toContain(keys.privatePem.split("\n")[1] ?? "");
  });

  it("signs with a key cosign generated (its own encrypted format) with PKG_KEY_PASSWORD; cosign verifies", async () => {
    const repo = `${registry.host}/acme/cosign-key`;
    await pushBundle(`${repo}:1.0.0`, bundle);
    const key = join(cosignHome, "cosign.key");
    const wrong = await runPkg(["package", "sign", `${repo}:1.0.0`, "--key", key], {
      env: { PKG_KEY_PASSWORD: "not-the-cosign-pass" },
    });
    expect(wrong.code).toBe(65);
    expect(wrong.stderr).toMatch(/cannot be decrypted with PKG_KEY_PASSWORD/);
    const signed = await runPkg(["package", "sign", `${repo}:1.0.0`, "--key", key], {
      env: { PKG_KEY_PASSWORD: COSIGN_PASSWORD },
    });
    expect(signed.code, signed.stderr).toBe(0);
    expect(`${signed.stdout}${signed.stderr}`).not.toContain(COSIGN_PASSWORD);
    const cosign = await runCosign(
      ["verify", "--key", "cosign.pub", "--experimental-oci11", "--insecure-ignore-tlog", `${repo}:1.0.0`],
      cosignHome,
    );
    expect(cosign.code, cosign.stderr).toBe(0);
  });

  it("signs with an Ed25519 key as cosign does, and pkg package sign adds a signature to a published tag", async () => {
    const ed = await writeKeyPair(work.path, "ed", PASSPHRASE, "ed25519");
    const repo = `${registry.host}/acme/ed`;
    await pushBundle(`${repo}:1.0.0`, bundle);
    const signed = await runPkg(["package", "sign", `${repo}:1.0.0`, "--key", ed.key, "--format", "json"], {
      env: { PKG_KEY_PASSWORD: PASSPHRASE },
    });
    expect(signed.code, signed.stderr).toBe(0);
    expect(JSON.parse(signed.stdout).subjects).toHaveLength(2);
    expect((await runPkg(["package", "verify", `${repo}:1.0.0`, "--key", ed.pub])).code).toBe(0);
    const cosign = await runCosign(
      ["verify", "--key", ed.pub, "--experimental-oci11", "--insecure-ignore-tlog", `${repo}:1.0.0`],
      cosignHome,
    );
    expect(cosign.code, cosign.stderr).toBe(0);
  });
});
