import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry } from "@pkg/oci";
import { type CliResult, runCli, type SigstoreServices, startSigstoreServices } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { helloAssetKeys, helloForge, runnersFor, sameKind } from "./support/hello-releases.js";
import { useSyncEnv } from "./support/sync-env.js";
import { mirrorBin, pkgBin, syncSpec } from "./support/sync-run.js";

// The mirror signs what it publishes when the spec has `sign` (every reference resolved once,
// before the first push), and `pipeline sign` signs what is published without a signature.

const PASSPHRASE = "mirror-pass-5512-secret";
const platforms = ["linux/amd64", "linux/arm64"];
const kinds = sameKind(platforms, "tar.gz");
const env = useSyncEnv("pkg-mirror-sign-", { forge: helloForge(["1.0.0", "1.1.0"], kinds) });

let keyPath: string;
let pubPath: string;
let privatePem: string;
let services: SigstoreServices;

beforeAll(async () => {
  const pair = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  privatePem = pair.privateKey
    .export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: PASSPHRASE })
    .toString();
  keyPath = join(env.work.path, "mirror.key");
  pubPath = join(env.work.path, "mirror.pub");
  await writeFile(keyPath, privatePem, { mode: 0o600 });
  await writeFile(pubPath, pair.publicKey.export({ type: "spki", format: "pem" }));
  services = await startSigstoreServices();
});
afterAll(async () => {
  await services?.stop();
});

const spec = (repository: string, sign?: unknown) =>
  syncSpec(env.registry.host, repository, {
    ...helloAssetKeys(kinds),
    platforms: runnersFor(platforms),
    ...(sign === undefined ? {} : { sign }),
  });

async function mirror(file: string, yaml: string, args: string[], extraEnv: Record<string, string> = {}) {
  await writeFile(join(env.work.path, file), yaml);
  return runCli(mirrorBin, ["package", ...args], {
    cwd: env.work.path,
    env: { PKG_FORGEONE_API_URL: env.forge.url, ...extraEnv },
  });
}

const sync = (file: string, yaml: string, extraEnv: Record<string, string> = {}) =>
  mirror(file, yaml, ["sync", file, "--work-dir", `wd-${file}`, "--format", "json"], extraEnv);

const verify = (ref: string, args: string[]) => runCli(pkgBin, ["package", "verify", ref, ...args]);
const tagsOf = (repository: string) =>
  openRegistry({ host: env.registry.host, repository }, { env: {} }).listTags();

const keySign = { key: { ref: "file://mirror.key", passphrase: "env://MIRROR_KEY_PASS" } };

/** No output of a run holds a secret value (the passphrase, the key's body, a token). */
function expectNoSecrets(result: CliResult, secrets: string[]) {
  for (const secret of secrets) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
}

describe("sync with sign", () => {
  it("key mode: every platform manifest and every tag's index is signed; pkg verifies each version", async () => {
    const result = await sync("key.yml", spec("acme/signed", keySign), { MIRROR_KEY_PASS: PASSPHRASE });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("signing with key file://mirror.key");
    expectNoSecrets(result, [PASSPHRASE, privatePem.split("\n")[1] ?? ""]);
    for (const tag of ["1.0.0", "1.1.0", "1.0", "latest"]) {
      const verified = await verify(`${env.registry.host}/acme/signed:${tag}`, ["--key", pubPath]);
      expect(verified.code, `${tag}: ${verified.stderr}`).toBe(0);
    }
  });

  it("keyless: the identity token comes from the spec's env:// reference; verified with the identity", async () => {
    const identity = "https://forge.example/acme/mirror/.forge/workflows/mirror.yml@refs/heads/main";
    const issuer = "https://token.forge.example";
    const token = services.identityToken(identity, issuer);
    const keyless = {
      keyless: {
        cert_authority: services.caUrl,
        log: "env://MIRROR_LOG_URL",
        identity_token: "env://CI_OIDC",
      },
    };
    const result = await sync("keyless.yml", spec("acme/keyless", keyless), {
      CI_OIDC: token,
      MIRROR_LOG_URL: services.logUrl,
    });
    expect(result.code, result.stderr).toBe(0);
    expectNoSecrets(result, [token]);
    const verified = await verify(`${env.registry.host}/acme/keyless:1.1.0`, [
      "--certificate-identity",
      identity,
      "--certificate-oidc-issuer",
      issuer,
      "--trusted-root",
      services.trustedRootPath,
    ]);
    expect(verified.code, verified.stderr).toBe(0);
  });

  it("a passphrase or identity token resolving to nothing is 78 naming the field, before any push", async () => {
    const noPass = await sync("no-pass.yml", spec("acme/no-pass", keySign));
    expect(noPass.code).toBe(78);
    expect(noPass.stderr).toMatch(/sign\.key\.passphrase: env:\/\/MIRROR_KEY_PASS resolves to nothing/);
    const noToken = await sync(
      "no-token.yml",
      spec("acme/no-token", { keyless: { identity_token: "file://missing-token" } }),
    );
    expect(noToken.code).toBe(78);
    expect(noToken.stderr).toMatch(
      /sign\.keyless\.identity_token: file:\/\/missing-token resolves to nothing/,
    );
    const noKey = await sync("no-key.yml", spec("acme/no-key", { key: "env://UNSET_MIRROR_KEY" }));
    expect(noKey.code).toBe(78);
    expect(noKey.stderr).toMatch(/sign\.key: env:\/\/UNSET_MIRROR_KEY resolves to nothing/);
    for (const repository of ["acme/no-pass", "acme/no-token", "acme/no-key"])
      expect(await tagsOf(repository)).toEqual([]);
  });

  it("a key-management-service key loads, then fails with 82 (unsupported_key_backend) before any push", async () => {
    const result = await sync("kms.yml", spec("acme/kms", { key: "gcpkms://projects/p/keys/k" }));
    expect(result.code).toBe(82);
    expect(result.stderr).toMatch(/sign\.key: gcpkms:\/\/ keys are not supported/);
    expect(await tagsOf("acme/kms")).toEqual([]);
  });
});

describe("pipeline sign", () => {
  it("signs every published subject without a signature; a second run signs nothing", async () => {
    const unsigned = await sync("plain.yml", spec("acme/backfill"));
    expect(unsigned.code, unsigned.stderr).toBe(0);
    const ref = `${env.registry.host}/acme/backfill:1.1.0`;
    expect((await verify(ref, ["--key", pubPath])).code).toBe(1);

    const yaml = spec("acme/backfill", keySign);
    const run = (args: string[]) =>
      mirror(
        "backfill.yml",
        yaml,
        ["pipeline", "sign", "--spec", "backfill.yml", "--format", "json", ...args],
        {
          MIRROR_KEY_PASS: PASSPHRASE,
        },
      );
    const dry = await run(["--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout);
    // two versions: two platform manifests each, an index per version and the rolling indexes
    expect(planned.counts.completed).toBe(0);
    expect(planned.counts.would_sign).toBeGreaterThanOrEqual(6);
    expect((await verify(ref, ["--key", pubPath])).code).toBe(1);

    const first = await run([]);
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.counts).toEqual({
      completed: planned.counts.would_sign,
      skipped: 0,
      failed: 0,
      would_sign: 0,
    });
    expectNoSecrets(first, [PASSPHRASE]);
    expect((await verify(ref, ["--key", pubPath])).code).toBe(0);

    const second = await run([]);
    expect(second.code, second.stderr).toBe(0);
    const again = JSON.parse(second.stdout);
    expect(again.counts).toEqual({
      completed: 0,
      skipped: report.counts.completed,
      failed: 0,
      would_sign: 0,
    });
    expect(again.subjects.every((s: { status: string }) => s.status === "skipped")).toBe(true);
  });

  it("refuses a spec without a sign block (64)", async () => {
    const result = await mirror("nosign.yml", spec("acme/backfill"), [
      "pipeline",
      "sign",
      "--spec",
      "nosign.yml",
    ]);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/has no sign block/);
  });
});
