import { generateKeyPairSync } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runCli } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PipelineEnv,
  pipelineCli,
  pipelineSpec,
  planPrepareTest,
  startPipelineEnv,
} from "./support/pipeline-env.js";
import { pkgBin } from "./support/sync-run.js";

// `pipeline push` signs what it publishes when the spec has `sign`, with the passphrase resolved
// from the spec's env:// reference before the first push.

const PASSPHRASE = "pipeline-push-pass-3301";
let env: PipelineEnv;
let pubPath: string;

beforeAll(async () => {
  env = await startPipelineEnv("pkg-mirror-sign-push-", [
    { version: "3.0.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
  ]);
  const pair = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  await writeFile(
    join(env.work.path, "push.key"),
    pair.privateKey.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: PASSPHRASE }),
  );
  pubPath = join(env.work.path, "push.pub");
  await writeFile(pubPath, pair.publicKey.export({ type: "spki", format: "pem" }));
}, 120_000);

afterAll(async () => {
  await env?.stop();
});

describe("pipeline push with sign", () => {
  it("signs each platform manifest and every tag's index it writes", async () => {
    const sign = { key: { ref: "push.key", passphrase: "env://PUSH_KEY_PASS" } };
    await writeFile(
      join(env.work.path, "signed.yml"),
      pipelineSpec(env.registry.host, "acme/signed-push", { sign }),
    );
    await planPrepareTest(env, "signed", "signed.yml");
    const args = [
      "push",
      "--spec",
      "signed.yml",
      "--bundles-dir",
      "signed/bundles",
      "--junit-dir",
      "signed/junit",
    ];
    const summary = ["--write-summary", "signed/run-summary.json"];
    const unresolved = await pipelineCli(env, [...args, ...summary]);
    expect(unresolved.code).toBe(78);
    expect(unresolved.stderr).toMatch(/sign\.key\.passphrase: env:\/\/PUSH_KEY_PASS resolves to nothing/);

    const push = await pipelineCli(env, [...args, ...summary], { PUSH_KEY_PASS: PASSPHRASE });
    expect(push.code, push.stderr).toBe(0);
    expect(`${push.stdout}${push.stderr}`).not.toContain(PASSPHRASE);
    for (const tag of ["3.0.0", "latest"]) {
      const verified = await runCli(pkgBin, [
        "package",
        "verify",
        `${env.registry.host}/acme/signed-push:${tag}`,
        "--key",
        pubPath,
      ]);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stderr).toContain("(linux/arm64)");
    }
  });
});
