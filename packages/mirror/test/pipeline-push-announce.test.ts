import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { createTestCa, type TestCa } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INDEX_FILES, PACKAGE } from "../../package/test/support/announce-forge.js";
import { ForgeoneServer } from "../../package/test/support/forgeone-server.js";
import type { RunSummary } from "../src/pipeline/documents/run-summary.js";
import { type PipelineEnv, pipelineSpec, planPrepareTest, startPipelineEnv } from "./support/pipeline-env.js";
import { mirrorBin } from "./support/sync-run.js";

/** The push job's one announce: run-summary.json says `interrupted` while it runs, so a killed job leaves a true record. */
const TOKEN = "ghp_push_announce_token_4242";
let env: PipelineEnv;
let ca: TestCa;
let forge: ForgeoneServer;

beforeAll(async () => {
  env = await startPipelineEnv("pkg-mirror-push-announce-", [
    { version: "4.0.0", assets: { "linux/amd64": "tar.gz", "linux/arm64": "binary" } },
  ]);
  ca = await createTestCa();
  forge = await ForgeoneServer.start(ca);
  forge.createRepo("acme/index", INDEX_FILES);
  forge.tokens.set(TOKEN, "alice");
}, 120_000);

afterAll(async () => {
  await forge?.stop();
  await ca?.remove();
  await env?.stop();
});

const readSummary = async (file: string) =>
  JSON.parse(await readFile(file, "utf8").catch(() => "null")) as RunSummary | null;

describe("pipeline push's announce", () => {
  it("writes announce: interrupted before the call, and a job killed during it leaves that record", async () => {
    const yaml = pipelineSpec(env.registry.host, "acme/held", {
      announce: { package: PACKAGE, index_repo: `${forge.host}/acme/index`, forge: "forgeone" },
    });
    await writeFile(join(env.work.path, "held.yml"), yaml);
    await planPrepareTest(env, "held", "held.yml");
    // the forge holds every call: the announce cannot finish
    forge.barrier.arm(1000, () => true);
    const summaryFile = join(env.work.path, "held", "run-summary.json");
    const child = spawn(
      process.execPath,
      [
        mirrorBin,
        "package",
        "pipeline",
        "push",
        "--spec",
        "held.yml",
        "--bundles-dir",
        "held/bundles",
      ].concat(["--junit-dir", "held/junit", "--write-summary", "held/run-summary.json"]),
      {
        cwd: env.work.path,
        env: {
          ...process.env,
          PKG_FORGEONE_API_URL: env.forge.url,
          PKG_ANNOUNCE_TOKEN: TOKEN,
          PKG_EXTRA_CA_CERTS: ca.certPath,
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // wait until the announce is talking to the forge
    for (let i = 0; i < 600 && forge.calls.length === 0; i++) await delay(50);
    expect(forge.calls.length, stderr).toBeGreaterThan(0);
    const during = await readSummary(summaryFile);
    expect(during?.announce).toEqual({ package: PACKAGE, status: "interrupted" });
    expect(during?.versions[0]).toMatchObject({ status: "published" });

    child.kill("SIGTERM");
    expect(await exited).toBe(143);
    const after = await readSummary(summaryFile);
    expect(after?.announce).toEqual({ package: PACKAGE, status: "interrupted" });
    expect(after?.versions[0]?.cascade_tags_written).toContain("4.0.0");
  });
});
