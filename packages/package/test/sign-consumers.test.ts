import { existsSync } from "node:fs";
import { join } from "node:path";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostKey, publishPackage, script } from "./support/exec-packages.js";
import { runPkg } from "./support/run-pkg.js";
import { writeKeyPair } from "./support/signing.js";

// pkg exec and pkg package pull with --verify-key refuse unsigned or wrongly signed packages; the
// commands pkg runs never see the signing secrets.

const PASSPHRASE = "consumer-pass-4471";
const SECRETS = {
  PKG_KEY_PASSWORD: PASSPHRASE,
  PKG_IDENTITY_TOKEN: "token-value-should-not-leak",
  PKG_SIGNING_KEY: "key-value-should-not-leak",
};

let registry: RunningRegistry;
let work: TempDir;
let keys: Awaited<ReturnType<typeof writeKeyPair>>;
let other: Awaited<ReturnType<typeof writeKeyPair>>;
let signed: string;
let unsigned: string;

beforeAll(async () => {
  registry = await startRegistry();
  work = await tempDir("pkg-sign-consumers-");
  keys = await writeKeyPair(work.path, "signing", PASSPHRASE);
  other = await writeKeyPair(work.path, "other", PASSPHRASE);
  const tree = { bin: { kind: "dir" as const }, "bin/hello": script("echo hello") };
  signed = `${registry.host}/acme/signed:1.0`;
  unsigned = `${registry.host}/acme/unsigned:1.0`;
  await publishPackage({ work: work.path, reference: signed, tree, metadata: {} });
  await publishPackage({ work: work.path, reference: unsigned, tree, metadata: {} });
  const sign = await runPkg(["package", "sign", signed, "--key", keys.key], {
    env: { PKG_KEY_PASSWORD: PASSPHRASE },
  });
  expect(sign.code, sign.stderr).toBe(0);
});
afterAll(async () => {
  await registry?.stop();
  await work?.remove();
});

const exec = (home: string, args: string[], env: Record<string, string> = {}) =>
  runPkg(["exec", ...args], { env: { PKG_HOME: home, ...env } });

describe("--verify-key on pkg exec and pkg package pull", () => {
  it("pkg exec runs a package signed with the key, and its command sees none of the signing secrets", async () => {
    const home = join(work.path, "home-1");
    const result = await exec(home, ["--verify-key", keys.pub, signed, "--", "env"], SECRETS);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^PATH=/m);
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(result.stdout).not.toContain(`${name}=`);
      expect(result.stdout).not.toContain(value);
    }
    // installed already: verified again all the same, and refused with another key
    const again = await exec(home, ["--verify-key", other.pub, signed, "--", "true"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/does not verify with the key/);
  });

  it("pkg package test's command sees none of the signing secrets either", async () => {
    const result = await runPkg(["package", "test", "-i", signed, "-p", hostKey(), "--", "env"], {
      env: { PKG_HOME: join(work.path, "home-test"), ...SECRETS },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^PATH=/m);
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(result.stdout).not.toContain(`${name}=`);
      expect(result.stdout).not.toContain(value);
    }
  });

  it("pkg exec and pkg package pull refuse an unsigned package before installing or extracting it", async () => {
    const home = join(work.path, "home-2");
    const ran = await exec(home, ["--verify-key", keys.pub, unsigned, "--", "true"]);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(/acme\/unsigned:1\.0.*: no signature/);
    expect(existsSync(join(home, "packages"))).toBe(false);

    const out = join(work.path, "pulled-unsigned");
    const pulled = await runPkg(["package", "pull", unsigned, "-o", out, "--verify-key", keys.pub]);
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toMatch(/no signature/);
    expect(existsSync(out)).toBe(false);

    const good = join(work.path, "pulled-signed");
    const ok = await runPkg(["package", "pull", signed, "-o", good, "--verify-key", keys.pub]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(existsSync(join(good, "content", "bin", "hello"))).toBe(true);
  });

  it("refuses incomplete or conflicting verify flags, and --offline with them (64)", async () => {
    const home = join(work.path, "home-3");
    const cases = [
      ["--verify-identity", "someone@example.com", signed],
      [
        "--verify-key",
        keys.pub,
        "--verify-identity",
        "someone@example.com",
        "--verify-issuer",
        "https://i.example",
        signed,
      ],
      ["--verify-key", keys.pub, "--offline", signed],
    ];
    for (const args of cases) {
      const result = await exec(home, [...args, "--", "true"]);
      expect(result.code, result.stderr).toBe(64);
    }
  });
});
