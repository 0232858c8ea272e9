import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { openRegistry } from "@pkg/oci";
import { detectHostPlatform } from "@pkg/package";
import {
  type RunningRegistry,
  runCli,
  startRegistry,
  type TempDir,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { type ChatWebhook, startChatWebhook } from "./support/chat-webhook.js";
import { type ForgeOptions, startForge } from "./support/forge.js";
import { sampleUpstream } from "./support/sample-upstream.js";
import { mirrorBin, tagDigestsOf } from "./support/sync-run.js";
import { type JobRun, runWorkflow } from "./support/workflow-runner.js";

/**
 * The generated mirror workflow, executed: its jobs' scripts run in `needs` order on this machine
 * (the native legs this host can run; the artefact actions emulated), through the built tools,
 * against a real registry that wants the credential the workflow maps from its secrets. The
 * registry must end as `pipeline run` leaves it for the same spec.
 */
let work: TempDir;
let registry: RunningRegistry;
let forge: TestServer;
let webhook: ChatWebhook;
let toolsDir: string;

const host = detectHostPlatform();
const hostKey = `${host.os}/${host.architecture}`;

const spec = (repository: string) =>
  stringify({
    name: "hello",
    target: { registry: registry.host, repository },
    source: { type: "forgeone_release", owner: "acme", repo: "hello" },
    assets: { [hostKey]: [`^hello-.*-${hostKey.replace("/", "-")}\\.tar\\.gz$`] },
    asset_type: { type: "archive", strip_components: 1 },
    metadata: { default: "hello.json" },
    tests: [
      { name: "greets", command: "hello" },
      { name: "smoke", script: "tests/smoke.star" },
    ],
    // a leg this host runs natively (another platform's leg would stay red here, as in pipeline run)
    platforms: { [hostKey]: { runner: "ubuntu-24.04" } },
    notify: { chat: { webhook_secret: "CHAT_HOOK", user_id: "123456789012345678" } },
  });

beforeAll(async () => {
  work = await tempDir("pkg-mirror-generate-exec-");
  const repo = join(work.path, "repo");
  await mkdir(join(repo, ".git"), { recursive: true });
  await mkdir(join(repo, "tests"));
  await writeFile(
    join(repo, "hello.json"),
    JSON.stringify({
      type: "bundle",
      version: 1,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata's own placeholder
      env: [{ key: "PATH", type: "path", value: "${installPath}", required: true }],
    }),
  );
  await writeFile(join(repo, "tests", "smoke.star"), 'expect.eq(pkg.run("hello").exit_code, 0)\n');
  registry = await startRegistry({ auth: "basic" });
  const options: ForgeOptions = { repo: "acme/hello", releases: [], files: new Map() };
  forge = await startForge(options);
  const layout = ["3.0.0", "3.1.0"].map((version) => ({
    version,
    assets: { "linux/amd64": "tar.gz", "linux/arm64": "tar.gz" } as Record<string, "tar.gz">,
  }));
  const upstream = await sampleUpstream(join(work.path, "scratch"), forge.url, layout);
  options.releases.push(...upstream.releases);
  for (const [name, bytes] of upstream.files) options.files?.set(name, bytes);
  webhook = await startChatWebhook();
  // the toolchain the workflow's install step would put on PATH: the built bins
  toolsDir = join(work.path, "tools");
  await mkdir(toolsDir);
  await writeFile(
    join(toolsDir, "pkg-mirror"),
    `#!/bin/sh\nexec "${process.execPath}" "${mirrorBin}" "$@"\n`,
  );
  await chmod(join(toolsDir, "pkg-mirror"), 0o755);
}, 120_000);

afterAll(async () => {
  await webhook?.stop();
  await forge?.stop();
  await registry?.stop();
  await work?.remove();
});

/** The runner's environment: this machine's minus credential sources, the tools first on PATH. */
function runnerEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith("PKG_AUTH_") || key.startsWith("GITHUB_")) continue;
    if (["NETRC", "DOCKER_CONFIG", "FORGEONE_TOKEN"].includes(key)) continue;
    env[key] = value;
  }
  return {
    ...env,
    HOME: "/nonexistent-pkg-test-home",
    PATH: `${toolsDir}:${process.env.PATH ?? ""}`,
    PKG_FORGEONE_API_URL: forge.url,
  };
}

/** Tag -> index digest, the build stamp of primary tags written as <stamp>. */
async function registryState(repository: string): Promise<Record<string, string>> {
  const user = registry.user;
  if (!user) throw new Error("the registry has no user");
  const slug = registry.host.replace(/[^A-Za-z0-9]/g, "_").toUpperCase();
  const target = openRegistry(
    { host: registry.host, repository },
    { env: { [`PKG_AUTH_${slug}_USER`]: user.username, [`PKG_AUTH_${slug}_TOKEN`]: user.password } },
  );
  const tags = await tagDigestsOf(target);
  return Object.fromEntries(
    Object.entries(tags).map(([tag, digest]) => [tag.replace(/_\d{14}$/, "_<stamp>"), digest]),
  );
}

const summary = (runs: JobRun[]) =>
  runs.map((r) => [
    r.job,
    Object.values(r.matrix)
      .filter((v) => typeof v === "string")
      .join(" "),
    r.result,
  ]);

describe("the generated mirror workflow, executed on this machine", () => {
  it("runs discover, prepare per version, the native legs of this host, push and notify, leaving the registry as pipeline run does", async () => {
    const repo = join(work.path, "repo");
    await writeFile(join(repo, "mirror.yml"), spec("acme/ci"));
    await writeFile(join(repo, "local.yml"), spec("acme/local"));
    const generated = await runCli(mirrorBin, ["package", "pipeline", "generate", "ci"], { cwd: repo });
    expect(generated.code, generated.stderr).toBe(0);

    const user = registry.user;
    if (!user) throw new Error("the registry has no user");
    const runs = await runWorkflow({
      workflow: join(repo, ".github", "workflows", "mirror.yml"),
      repo,
      work: join(work.path, "runner"),
      env: runnerEnv(),
      secrets: {
        GITHUB_TOKEN: "forge-token",
        PKG_MIRROR_REGISTRY_USER: user.username,
        PKG_MIRROR_REGISTRY_TOKEN: user.password,
        CHAT_HOOK: webhook.url,
      },
      github: {
        event_name: "workflow_dispatch",
        token: "forge-token",
        actor: "mirror-bot",
        ref_name: "main",
        event: { repository: { default_branch: "main" } },
      },
      // the native legs of this host's platform, as pipeline run chooses them
      runsHere: (job, matrix) => job !== "test" || (matrix.leg === hostKey && matrix.container === "native"),
    });
    const failed = runs.flatMap((r) =>
      r.steps.filter((s) => s.outcome === "failure").map((s) => `${r.job}/${s.name}: ${s.output}`),
    );
    const versions = ["3.0.0", "3.1.0"];
    const stamp = (v: string) => expect.stringMatching(new RegExp(`^${v.replaceAll(".", "\\.")}_\\d{14}$`));
    expect(failed).toEqual([]);
    expect(summary(runs)).toEqual([
      ["discover", "", "success"],
      ...versions.map((v) => ["prepare", stamp(v), "success"]),
      ["test", expect.stringContaining(hostKey), "success"],
      ["push", "", "success"],
      ["notify", "", "success"],
    ]);
    const discover = runs.find((r) => r.job === "discover");
    expect(discover?.outputs).toMatchObject({ has_new: "true", target: `${registry.host}/acme/ci` });
    const push = runs.find((r) => r.job === "push");
    expect(push?.outputs).toEqual({ any_new_green: "true", any_red: "false", announce: "unconfigured" });
    // one chat message per published version
    expect(webhook.bodies).toHaveLength(2);

    // the same spec through pipeline run, into another repository of the registry
    const slug = registry.host.replace(/[^A-Za-z0-9]/g, "_").toUpperCase();
    const local = await runCli(
      mirrorBin,
      ["package", "pipeline", "run", "--spec", "local.yml", "--work-dir", join(work.path, "local-run")],
      {
        cwd: repo,
        env: {
          PKG_FORGEONE_API_URL: forge.url,
          [`PKG_AUTH_${slug}_USER`]: user.username,
          [`PKG_AUTH_${slug}_TOKEN`]: user.password,
        },
      },
    );
    expect(local.code, local.stderr).toBe(0);
    const ci = await registryState("acme/ci");
    expect(Object.keys(ci).sort()).toEqual(
      ["3", "3.0", "3.0.0", "3.0.0_<stamp>", "3.1", "3.1.0", "3.1.0_<stamp>", "latest"].sort(),
    );
    expect(ci).toEqual(await registryState("acme/local"));
  });
});
