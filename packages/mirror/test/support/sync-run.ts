import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openRegistry, sha256Digest, type Target } from "@pkg/oci";
import { PUBLISHED_SUMMARY_TAG } from "@pkg/package";
import { type CliResult, runCli, runCommand, type TempDir, type TestServer, tempDir } from "@pkg/testkit";
import { expect } from "vitest";
import { stringify } from "yaml";
import { type ForgeRelease, forgeRelease, startForge } from "./forge.js";

export const mirrorBin = fileURLToPath(new URL("../../bin/pkg-mirror.js", import.meta.url));
export const pkgBin = fileURLToPath(new URL("../../../package/bin/pkg.js", import.meta.url));

/** The metadata every sample package carries: `hello` on the PATH at the install root. */
export const HELLO_METADATA = "hello.json";

/** A temporary repository root (it holds `.git`) with the sample metadata file. */
export async function syncWorkspace(prefix: string): Promise<TempDir> {
  const work = await tempDir(prefix);
  await mkdir(join(work.path, ".git"));
  await writeFile(
    join(work.path, HELLO_METADATA),
    JSON.stringify({
      type: "bundle",
      version: 1,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the metadata's own placeholder, not a template
      env: [{ key: "PATH", type: "path", value: "${installPath}", required: true }],
      binaries: ["hello"],
    }),
  );
  return work;
}

/** One upstream release: its version (tag `v<version>`) and asset files. */
export interface UpstreamRelease {
  version: string;
  prerelease?: boolean;
  assets: Map<string, Buffer>;
}

/** A forge whose listed releases (newest first) a test may change between runs. */
export type UpstreamForge = TestServer & { releases: ForgeRelease[] };

/** A loopback forge listing `releases` (give them oldest first) with their true digests, serving their files. */
export async function startUpstream(
  repo: string,
  releases: readonly UpstreamRelease[],
): Promise<UpstreamForge> {
  const files = new Map<string, Buffer>();
  const options = { repo, releases: [] as ForgeRelease[], files };
  const server = await startForge(options);
  for (const release of releases) {
    const listed = [...release.assets].map(([name, bytes]) => {
      files.set(name, bytes);
      return { name, url: `${server.url}/files/${name}`, digest: sha256Digest(bytes) };
    });
    options.releases.unshift(
      forgeRelease(`v${release.version}`, listed, { prerelease: release.prerelease ?? false }),
    );
  }
  return Object.assign(server, { releases: options.releases });
}

/** The sync spec of the sample tool from forge repository `owner/repo`, with `extra` keys merged in. */
export function syncSpec(
  registryHost: string,
  repository: string,
  extra: Record<string, unknown>,
  source = "acme/hello",
): string {
  const [owner, repo] = source.split("/");
  return stringify({
    name: "hello",
    target: { registry: registryHost, repository },
    source: { type: "forgeone_release", owner, repo },
    metadata: { default: HELLO_METADATA },
    ...extra,
  });
}

/** Writes `yaml` to `file` in `cwd` and runs `pkg-mirror package sync` on it against `forge`. */
export async function runSyncCli(
  cwd: string,
  file: string,
  yaml: string,
  forge: TestServer,
  args: string[] = [],
): Promise<CliResult> {
  await writeFile(join(cwd, file), yaml);
  return runCli(mirrorBin, ["package", "sync", file, ...args], {
    cwd,
    env: { PKG_FORGEONE_API_URL: forge.url },
  });
}

/** `runSyncCli` with `--format json` (then `args`): checks the exit code and parses the report. */
export async function syncReport(
  cwd: string,
  file: string,
  yaml: string,
  forge: TestServer,
  args: string[] = [],
  expectedCode = 0,
): Promise<{ report: SyncJson; stderr: string }> {
  const result = await runSyncCli(cwd, file, yaml, forge, ["--format", "json", ...args]);
  expect(result.code, result.stderr).toBe(expectedCode);
  return { report: JSON.parse(result.stdout) as SyncJson, stderr: result.stderr };
}

/** `package sync --format json`, as the tests read it. */
export interface SyncJson {
  name: string;
  target: string;
  dry_run: boolean;
  versions: Array<{
    version: string;
    variant?: string;
    primary_tag?: string;
    cascade_tags_written: string[];
    layer_reuse: { mounted: number; uploaded: number; verified: number };
    platforms: Array<{
      platform: string;
      status: string;
      reason?: string;
      tags_written: string[];
      attempts: number;
      error?: { exit_code: number; message: string };
    }>;
  }>;
  counts: Record<string, number>;
}

/** The `YYYYMMDDHHMMSS` build time of the run's first primary tag. */
export function buildTimeOf(report: SyncJson): string {
  const primary = report.versions.find((v) => v.primary_tag)?.primary_tag ?? "";
  return primary.slice(primary.indexOf("_") + 1);
}

const ACCEPT = "application/vnd.oci.image.index.v1+json, application/vnd.oci.image.manifest.v1+json";

/** The published summary sync keeps beside the package tags: left out here, its own tests look at it. */
const packageTag = (tag: string) => tag !== PUBLISHED_SUMMARY_TAG;

/** Every package tag of `repository`, sorted, read straight from the registry's API. */
export async function listTags(registryUrl: string, repository: string): Promise<string[]> {
  const response = await fetch(`${registryUrl}/v2/${repository}/tags/list`);
  if (response.status === 404) return [];
  return (((await response.json()) as { tags: string[] | null }).tags ?? []).filter(packageTag).sort();
}

/** Tag -> index digest of everything `repository` holds. */
export function tagDigests(registryHost: string, repository: string): Promise<Record<string, string>> {
  return tagDigestsOf(openRegistry({ host: registryHost, repository }, { env: {} }));
}

/** Package tag -> index digest of everything a target (registry or layout) holds. */
export async function tagDigestsOf(target: Target): Promise<Record<string, string>> {
  const tags = (await target.listTags()).filter(packageTag).sort();
  const entries = await Promise.all(
    tags.map(async (tag) => [tag, (await target.fetchManifest(tag))?.descriptor.digest ?? "gone"] as const),
  );
  return Object.fromEntries(entries);
}

/** Reads every tag's index from the registry and HEADs each manifest, config and layer it names. */
export async function expectEveryTagComplete(registryUrl: string, repository: string): Promise<void> {
  const base = `${registryUrl}/v2/${repository}`;
  for (const tag of await listTags(registryUrl, repository)) {
    const index = (await (
      await fetch(`${base}/manifests/${tag}`, { headers: { accept: ACCEPT } })
    ).json()) as {
      manifests: Array<{ digest: string }>;
    };
    expect(index.manifests.length, tag).toBeGreaterThan(0);
    for (const entry of index.manifests) {
      const response = await fetch(`${base}/manifests/${entry.digest}`, { headers: { accept: ACCEPT } });
      expect(response.status, `${tag} -> ${entry.digest}`).toBe(200);
      const manifest = (await response.json()) as {
        config: { digest: string };
        layers: Array<{ digest: string }>;
      };
      for (const blob of [manifest.config, ...manifest.layers]) {
        const head = await fetch(`${base}/blobs/${blob.digest}`, { method: "HEAD" });
        expect(head.status, `${tag} -> ${blob.digest}`).toBe(200);
      }
    }
  }
}

/** Pulls `ref` for `platform` with the built `pkg` into `out` and runs its `hello`; returns what it printed. */
export async function pullAndRun(cwd: string, ref: string, platform: string, out: string): Promise<string> {
  const pulled = await runCli(pkgBin, ["package", "pull", ref, "--platform", platform, "-o", out], { cwd });
  expect(pulled.code, pulled.stderr).toBe(0);
  return (await runCommand(join(out, "content", "hello"), [])).stdout;
}
