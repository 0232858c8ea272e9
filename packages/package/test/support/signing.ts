import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry, parseReference } from "@pkg/oci";
import { type CliResult, goTool, spawnCollect } from "@pkg/testkit";
import { expect } from "vitest";
import { runPkg } from "./run-pkg.js";

/** Writes an ECDSA P-256 key pair: the private key PKCS#8 PEM encrypted with `passphrase`. */
export async function writeKeyPair(
  dir: string,
  name: string,
  passphrase: string,
  type: "ec" | "ed25519" = "ec",
) {
  const pair =
    type === "ec" ? generateKeyPairSync("ec", { namedCurve: "prime256v1" }) : generateKeyPairSync("ed25519");
  const privatePem = pair.privateKey
    .export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase })
    .toString();
  const publicPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
  const key = join(dir, `${name}.key`);
  const pub = join(dir, `${name}.pub`);
  await writeFile(key, privatePem, { mode: 0o600 });
  await writeFile(pub, publicPem);
  return { key, pub, privatePem, publicPem };
}

/** Publishes one platform of `bundle` at `ref` and returns what push reported. */
export async function pushBundle(
  ref: string,
  bundle: string,
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  const result = await runPkg(
    ["package", "push", "-i", ref, "-p", "linux/amd64", "--format", "json", ...extra, bundle],
    { env },
  );
  expect(result.code, result.stderr).toBe(0);
  return { ...result, report: JSON.parse(result.stdout) as PushJson };
}

export interface PushJson {
  repository: string;
  manifestDigest: string;
  indexDigest: string;
  tags: string[];
  signatures?: Array<{ subject: string; status: string; signature?: string }>;
}

/**
 * Runs the real cosign with a private home (no ~/.sigstore of the developer's) and with no TUF
 * fetch (the machine reaches no public Sigstore): SIGSTORE_REKOR_PUBLIC_KEY names a key file, which
 * cosign takes as the user's own trust and so skips the trust-root download.
 */
export async function runCosign(
  args: string[],
  home: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const result = await spawnCollect(goTool("cosign"), args, {
    cwd: home,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      TUF_ROOT: join(home, ".sigstore"),
      ...env,
    },
  });
  return { code: result.code, stdout: result.stdout, stderr: result.stderr };
}

/** The tags of a registry repository, through our OCI client. */
export async function repositoryTags(ref: string): Promise<string[]> {
  return openRegistry(parseReference(ref)).listTags();
}
