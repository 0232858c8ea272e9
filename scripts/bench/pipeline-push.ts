// The push bench's version of six platforms: `pkg-mirror package pipeline push` of one version
// prepared by the real `pipeline plan`, `pipeline prepare` and `pipeline test` against a loopback
// forge (made once under .bench/push/pipeline and kept), against `skopeo copy` of the same images,
// one process per platform, out of the OCI layout `pipeline push --layout` made of that version.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startRegistry } from "@pkg/testkit";
import { stringify } from "yaml";
import { bundleFileName } from "../../packages/mirror/src/pipeline/documents/artifacts.js";
import type { PlanDocument } from "../../packages/mirror/src/pipeline/documents/plan-document.js";
import type { RunSummary } from "../../packages/mirror/src/pipeline/documents/run-summary.js";
import { type ForgeRelease, forgeRelease, startForge } from "../../packages/mirror/test/support/forge.js";
import { median, repoRoot, timedRun, withRegistry } from "./measure.js";
import type { PushCase } from "./push.js";
import { platformSlug as slug } from "./sync-assets.js";

const mirrorBin = join(repoRoot, "packages/mirror/bin/pkg-mirror.js");

const RECIPE = "pipeline-push v1";
const REPO = "acme/tool";
const VERSION = "1.0.0";
/** The version's platforms, each a different incompressible binary of `PAYLOAD_BYTES`. */
const PIPELINE_PLATFORMS = [
  "linux/amd64",
  "linux/arm64",
  "darwin/amd64",
  "darwin/arm64",
  "windows/amd64",
  "linux/386",
];
const PAYLOAD_BYTES = 30e6;

/** One prepared version: the work directory the pipeline ran in, and what push pushes of it. */
interface PreparedRelease {
  work: string;
  /** The plan's primary tag of the version. */
  tag: string;
  /** `pipeline push --layout` of the version: skopeo's source. */
  layout: string;
  /** The bundles' bytes, every platform. */
  bundleBytes: number;
}

/** The spec of the mirror, publishing to `registry`: binaries, one native test leg per platform. */
function spec(registry: string): string {
  return stringify({
    name: "tool",
    target: { registry, repository: REPO },
    source: { type: "forgeone_release", owner: "acme", repo: "tool" },
    assets: Object.fromEntries(PIPELINE_PLATFORMS.map((p) => [p, [`^tool-.*-${slug(p)}$`]])),
    asset_type: { default: { type: "binary", name: "tool" } },
    tests: [{ name: "installs", command: "true" }],
    // every leg runs natively here (the test is `true`); windows's takes bash, not its default pwsh
    platforms: Object.fromEntries(
      PIPELINE_PLATFORMS.map((p) => [
        p,
        p.startsWith("windows/") ? { runner: "ubuntu-24.04", shell: "bash" } : { runner: "ubuntu-24.04" },
      ]),
    ),
  });
}

const pipeline = (work: string, args: string[], env: Record<string, string> = {}) =>
  timedRun(process.execPath, [mirrorBin, "package", "pipeline", ...args], { cwd: work, env });

/**
 * The jobs of a CI run before push, run once against a loopback forge and registry: plan,
 * prepare of the one version, every test leg; then `pipeline push --layout` of the result, which
 * checks the gating is green and makes skopeo's source. Kept while the recipe matches.
 */
async function preparedRelease(benchDir: string): Promise<PreparedRelease> {
  const dir = join(benchDir, "push", "pipeline");
  const work = join(dir, "work");
  const done = join(dir, "prepared.json");
  if (existsSync(done)) {
    const kept = JSON.parse(await readFile(done, "utf8")) as PreparedRelease & { recipe: string };
    if (kept.recipe === RECIPE && existsSync(kept.layout)) return kept;
  }
  process.stderr.write(
    `preparing ${PIPELINE_PLATFORMS.length} platforms of one version under ${dir} (once)\n`,
  );
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(work, ".git"), { recursive: true });
  const files = new Map<string, Buffer>();
  for (const platform of PIPELINE_PLATFORMS)
    files.set(`tool-${VERSION}-${slug(platform)}`, randomBytes(PAYLOAD_BYTES));
  const releases: ForgeRelease[] = [];
  const forge = await startForge({ repo: REPO, releases, files });
  const registry = await startRegistry();
  try {
    releases.push(
      forgeRelease(
        `v${VERSION}`,
        [...files.keys()].map((name) => ({ name, url: `${forge.url}/files/${name}` })),
      ),
    );
    await writeFile(join(work, "mirror.yml"), spec(registry.host));
    const env = { PKG_FORGEONE_API_URL: forge.url };
    await pipeline(work, ["plan", "--spec", "mirror.yml", "-o", "plan.json"], env);
    const plan = JSON.parse(await readFile(join(work, "plan.json"), "utf8")) as PlanDocument;
    const [entry] = plan.versions;
    if (entry === undefined || plan.versions.length !== 1)
      throw new Error(`the plan has ${plan.versions.length} versions, not 1`);
    const tag = entry.version;
    await pipeline(
      work,
      [
        "prepare",
        "--spec",
        "mirror.yml",
        "--plan",
        "plan.json",
        "--version",
        tag,
        "--bundles-dir",
        "bundles",
      ],
      env,
    );
    for (const leg of Object.keys(plan.legs))
      await pipeline(work, [
        "test",
        "--plan",
        "plan.json",
        "--leg",
        leg,
        "--bundles-dir",
        "bundles",
        "--junit-dir",
        "junit",
      ]);
    // prepare's downloads and trees: push reads the bundles directory only
    await rm(join(work, ".pkg-mirror"), { recursive: true, force: true });
    const layout = join(dir, "layout");
    await pushVersion(work, ["--layout", layout]);
    let bundleBytes = 0;
    for (const platform of PIPELINE_PLATFORMS)
      bundleBytes += (await stat(join(work, "bundles", bundleFileName(tag, slug(platform))))).size;
    const prepared: PreparedRelease = { work, tag, layout, bundleBytes };
    await writeFile(done, `${JSON.stringify({ recipe: RECIPE, ...prepared }, null, 2)}\n`);
    return prepared;
  } finally {
    await registry.stop();
    await forge.stop();
  }
}

/** `pipeline push` of the prepared version, into the spec's registry unless `extra` says a layout. */
async function pushVersion(work: string, extra: string[] = []): Promise<number> {
  const run = await pipeline(work, [
    "push",
    "--spec",
    "mirror.yml",
    "--bundles-dir",
    "bundles",
    "--junit-dir",
    "junit",
    "--write-summary",
    "run-summary.json",
    "--format",
    "json",
    ...extra,
  ]);
  const summary = JSON.parse(run.stdout) as RunSummary;
  const pushed = summary.versions[0]?.platforms_pushed ?? [];
  if (summary.any_red || pushed.length !== PIPELINE_PLATFORMS.length)
    throw new Error(`pipeline push pushed ${pushed.length} platforms: ${run.stdout.slice(0, 2000)}`);
  return run.seconds;
}

/** `skopeo copy` of one platform's image out of the layout's index for the version's tag. */
function skopeoPlatform(layout: string, tag: string, platform: string, host: string): Promise<number> {
  const [os = "", arch = ""] = platform.split("/");
  return timedRun("skopeo", [
    "copy",
    "--quiet",
    "--dest-tls-verify=false",
    "--override-os",
    os,
    "--override-arch",
    arch,
    `oci:${join(layout, REPO)}:${tag}`,
    `docker://${host}/${REPO}:${tag}-${slug(platform)}`,
  ]).then((run) => run.seconds);
}

/** The six-platform version pushed by both tools, alternating, each push into a registry of its own. */
export interface PipelinePushCase extends PushCase {
  platforms: number;
}

/**
 * `pipeline push` of the version (every platform, its tags and the published summary, as CI
 * pushes it) against one `skopeo copy` per platform run one after the other, `rounds` times each,
 * alternating so neither enjoys a warmer page cache. Each side's time is its processes' wall time.
 */
export async function measurePipelinePush(
  benchDir: string,
  rounds: number,
  goalRatio: number,
): Promise<PipelinePushCase> {
  const { work, tag, layout, bundleBytes } = await preparedRelease(benchDir);
  const ours: number[] = [];
  const skopeo: number[] = [];
  for (let round = 0; round < rounds; round++) {
    ours.push(
      await withRegistry(async (host) => {
        await writeFile(join(work, "mirror.yml"), spec(host));
        return pushVersion(work);
      }),
    );
    skopeo.push(
      await withRegistry(async (host) => {
        let seconds = 0;
        for (const platform of PIPELINE_PLATFORMS)
          seconds += await skopeoPlatform(layout, tag, platform, host);
        return seconds;
      }),
    );
  }
  const oursSeconds = median(ours);
  const skopeoSeconds = median(skopeo);
  const ratio = oursSeconds / skopeoSeconds;
  return {
    name: `a version of ${PIPELINE_PLATFORMS.length} platforms (${PAYLOAD_BYTES / 1e6} MB binary each)`,
    platforms: PIPELINE_PLATFORMS.length,
    bundleBytes,
    ours,
    skopeo,
    oursSeconds,
    skopeoSeconds,
    ratio,
    ok: ratio <= goalRatio,
  };
}
