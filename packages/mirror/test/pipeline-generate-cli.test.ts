import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type CliResult, runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ACTION_PINS } from "../src/pipeline/generate-ci/pins.js";
import { mirrorBin } from "./support/sync-run.js";

/** `pkg-mirror package pipeline generate ci` and `generate child` through the built bin, in throwaway repositories. */
const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/mirror-specs/", import.meta.url));
let work: TempDir;
let count = 0;

beforeAll(async () => {
  work = await tempDir("pkg-mirror-generate-cli-");
});

afterAll(async () => {
  await work?.remove();
});

/** A fresh repository holding `files` (path -> text, or a fixture name to copy). */
async function repository(files: Record<string, string | { fixture: string }>): Promise<string> {
  const repo = join(work.path, `repo-${++count}`);
  await mkdir(join(repo, ".git"), { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(repo, path)), { recursive: true });
    if (typeof content === "string") await writeFile(join(repo, path), content);
    else await copyFile(join(fixtures, `${content.fixture}.yml`), join(repo, path));
  }
  return repo;
}

const generate = (repo: string, args: string[] = [], env: Record<string, string> = {}): Promise<CliResult> =>
  runCli(mirrorBin, ["package", "pipeline", "generate", "ci", ...args], { cwd: repo, env });

const workflows = async (repo: string) => (await readdir(join(repo, ".github", "workflows"))).sort();
const workflow = (repo: string, name: string) => readFile(join(repo, ".github", "workflows", name), "utf8");
const edit = async (repo: string, name: string, change: (text: string) => string) =>
  writeFile(join(repo, ".github", "workflows", name), change(await workflow(repo, name)));

const TWO_SPECS = ["--spec", "mirror.yml", "--spec", "tools/jq/mirror.yml"];

describe("generate ci --check", () => {
  it("is clean after generate, and generating again changes nothing", async () => {
    const repo = await repository({
      "mirror.yml": { fixture: "ghcr-announce" },
      "tools/jq/mirror.yml": { fixture: "container-libc" },
    });
    const first = await generate(repo, TWO_SPECS);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("wrote .github/workflows/mirror-tools-jq.yml");
    const check = await generate(repo, ["--check", ...TWO_SPECS]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toBe("up to date: 10 generated file(s)\n");
    const again = await generate(repo, ["--spec", "tools/jq/mirror.yml", "--spec", "mirror.yml"]);
    expect(again.stdout).toBe("up to date: 10 generated file(s)\n");
  });

  it("reports a hand edit and a missing file as drift (65), a bumped pin as none, another action as drift", async () => {
    const repo = await repository({ "mirror.yml": { fixture: "ghcr-announce" } });
    expect((await generate(repo)).code).toBe(0);

    // a pin bump, the way a bot does it: every checkout to another SHA and release
    const pin = ACTION_PINS.checkout;
    const bumped = `${pin.action}@${"a".repeat(40)} # v9.9.9`;
    for (const name of await workflows(repo))
      await edit(repo, name, (text) => text.replaceAll(`${pin.action}@${pin.sha} # ${pin.release}`, bumped));
    expect(await workflow(repo, "mirror.yml")).toContain(bumped);
    const afterBump = await generate(repo, ["--check"]);
    expect(afterBump.code, afterBump.stderr).toBe(0);

    await edit(repo, "describe.yml", (text) =>
      text.replace("runs-on: ubuntu-latest", "runs-on: ubuntu-22.04"),
    );
    await edit(repo, "patch.yml", (text) => text.replaceAll(`${pin.action}@`, "someone/checkout@"));
    await rm(join(repo, ".github", "workflows", "cascade.yml"));
    const drift = await generate(repo, ["--check"]);
    expect(drift.code).toBe(65);
    expect(drift.stderr.split("\n").filter((line) => /^(drift|stale): /.test(line))).toEqual([
      "drift: .github/workflows/cascade.yml",
      "drift: .github/workflows/describe.yml",
      "drift: .github/workflows/patch.yml",
    ]);
    expect(drift.stderr).toContain("3 generated file(s) differ from what the specs render");
    // --check wrote nothing
    expect(existsSync(join(repo, ".github", "workflows", "cascade.yml"))).toBe(false);

    // generate repairs it; the bumped pins go back to the renderer's
    const repaired = await generate(repo);
    expect(repaired.stdout.split("\n").filter(Boolean).sort()).toEqual(
      ["announce-from-registry", "cascade", "describe", "mirror", "patch", "verify-generated"].map(
        (stem) => `wrote .github/workflows/${stem}.yml`,
      ),
    );
    expect((await generate(repo, ["--check"])).code).toBe(0);
  });

  it("reports the files of a dropped spec as stale, and generate removes them; hand-written workflows are never touched", async () => {
    const repo = await repository({
      "mirror.yml": { fixture: "ghcr-announce" },
      "tools/jq/mirror.yml": { fixture: "container-libc" },
      ".github/workflows/ci.yml": "name: ci\non: push\njobs: {}\n",
    });
    expect((await generate(repo, TWO_SPECS)).code).toBe(0);
    await rm(join(repo, "tools"), { recursive: true });
    const check = await generate(repo, ["--check"]);
    expect(check.code).toBe(65);
    const lines = check.stderr.split("\n").filter((line) => /^(drift|stale): /.test(line));
    expect(lines).toEqual([
      // the guard named both specs; now it names one
      "drift: .github/workflows/verify-generated.yml",
      ...["cascade", "describe", "mirror", "patch"].map(
        (stem) => `stale: .github/workflows/${stem}-tools-jq.yml`,
      ),
    ]);
    const regenerated = await generate(repo);
    expect(regenerated.code, regenerated.stderr).toBe(0);
    expect(regenerated.stdout).toContain(
      "removed .github/workflows/mirror-tools-jq.yml (no spec renders it any more)",
    );
    expect(await workflows(repo)).toEqual(
      ["announce-from-registry", "cascade", "ci", "describe", "mirror", "patch", "verify-generated"].map(
        (s) => `${s}.yml`,
      ),
    );
    expect(await workflow(repo, "ci.yml")).toBe("name: ci\non: push\njobs: {}\n");
    expect((await generate(repo, ["--check"])).code).toBe(0);
  });

  it("drops the drift guard only when every spec allows manual edits, and names the specs that do not", async () => {
    const allow = async (fixture: string) =>
      `${await readFile(join(fixtures, `${fixture}.yml`), "utf8")}\nallow_manual_edits: true\n`;
    const all = await repository({
      "mirror.yml": await allow("ghcr-announce"),
      "tools/jq/mirror.yml": await allow("container-libc"),
    });
    const allResult = await generate(all, TWO_SPECS);
    expect(allResult.code, allResult.stderr).toBe(0);
    expect(await workflows(all)).not.toContain("verify-generated.yml");

    const partial = await repository({
      "mirror.yml": await allow("ghcr-announce"),
      "tools/jq/mirror.yml": { fixture: "container-libc" },
    });
    const partialResult = await generate(partial, TWO_SPECS);
    expect(partialResult.code, partialResult.stderr).toBe(0);
    expect(partialResult.stderr).toContain(
      "allow_manual_edits is not set in tools/jq/mirror.yml: the drift guard still checks every spec",
    );
    const guard = parse(await workflow(partial, "verify-generated.yml"));
    expect(guard.jobs.verify.steps.at(-1).run).toBe(
      "pkg-mirror package pipeline generate ci --check --spec mirror.yml --spec tools/jq/mirror.yml\n",
    );
  });

  it("warns when the forge's own registry is not under this repository's owner", async () => {
    const repo = await repository({ "mirror.yml": { fixture: "ghcr-announce" } });
    const other = await generate(repo, ["--check"], { GITHUB_REPOSITORY: "someone-else/mirrors" });
    expect(other.stderr).toContain(
      "mirror.yml: target ghcr.io/ocx-contrib/bazelbuild/bazelisk: on ghcr.io the first path segment must be the owner of this repository (someone-else)",
    );
    const own = await generate(repo, ["--check"], { GITHUB_REPOSITORY: "ocx-contrib/mirrors" });
    expect(own.stderr).not.toContain("first path segment");
  });
});

describe("generate ci refusals", () => {
  it("64: two specs in one directory, a spec outside --repo-root, an extends base outside the repository, colliding names, a hand-written file in the way", async () => {
    const repo = await repository({
      "a.yml": { fixture: "ghcr-announce" },
      "b.yml": { fixture: "container-libc" },
      "x-y/mirror.yml": { fixture: "ghcr-announce" },
      "x/y/mirror.yml": { fixture: "container-libc" },
      "inner/mirror.yml": { fixture: "ghcr-announce" },
      "escapes/mirror.yml": "extends: ../../outside.yml\ntests: [{name: t, command: t}]\n",
    });
    await writeFile(
      join(repo, "..", "outside.yml"),
      await readFile(join(fixtures, "ghcr-announce.yml"), "utf8"),
    );
    const cases: Array<[string[], RegExp]> = [
      [
        ["--spec", "a.yml", "--spec", "b.yml"],
        /a\.yml and b\.yml are in one directory; a directory holds one spec/,
      ],
      [
        ["--spec", "a.yml", "--repo-root", "inner"],
        /a\.yml is outside the repository root .*inner; give --repo-root/,
      ],
      [
        ["--spec", "escapes/mirror.yml", "--repo-root", "."],
        /extends: \.\.\/\.\.\/outside\.yml is outside the repository/,
      ],
      [
        ["--spec", "x-y/mirror.yml", "--spec", "x/y/mirror.yml"],
        /x-y and x\/y would both write workflows named \*-x-y\.yml/,
      ],
    ];
    for (const [args, message] of cases) {
      const result = await generate(repo, args);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(64);
      expect(result.stderr).toMatch(message);
    }
    expect(existsSync(join(repo, ".github"))).toBe(false);

    const handWritten = "name: mine\non: push\njobs: {}\n";
    await mkdir(join(repo, ".github", "workflows"), { recursive: true });
    await writeFile(join(repo, ".github", "workflows", "describe.yml"), handWritten);
    const inTheWay = await generate(repo, ["--spec", "a.yml"]);
    expect(inTheWay.code).toBe(64);
    expect(inTheWay.stderr).toContain(".github/workflows/describe.yml exists and was not generated");
    expect(await workflow(repo, "describe.yml")).toBe(handWritten);
  });

  it("65: a script that resolves to nothing names the path to write; a spec without platforms or tests", async () => {
    const spec = (extra: Record<string, unknown>) =>
      stringify({ ...(parse(SHFMT) as Record<string, unknown>), ...extra });
    const repo = await repository({
      "tools/jq/mirror.yml": spec({ tests: [{ name: "smoke", script: "tests/smoke.star" }] }),
      "tools/jq/tests/smoke.star": "expect.true(True)\n",
      "nowhere/mirror.yml": spec({ tests: [{ name: "smoke", script: "tests/missing.star" }] }),
      "bare/mirror.yml": spec({ tests: [], platforms: { "linux/amd64": { runner: "ubuntu-latest" } } }),
      "noplat/mirror.yml": spec({ platforms: undefined }),
    });
    const cases: Array<[string, string]> = [
      [
        "tools/jq/mirror.yml",
        'tools/jq/mirror.yml: tests[0].script "tests/smoke.star" resolves from the repository root, where there is no such file; the spec\'s directory has it: write script: tools/jq/tests/smoke.star',
      ],
      [
        "nowhere/mirror.yml",
        'nowhere/mirror.yml: tests[0].script "tests/missing.star": no such file under the repository root (scripts resolve from there); write it at tests/missing.star',
      ],
      ["bare/mirror.yml", "bare/mirror.yml: generate ci needs tests (at least one entry) for linux/amd64"],
      ["noplat/mirror.yml", "noplat/mirror.yml: generate ci needs platforms"],
    ];
    for (const [path, message] of cases) {
      const result = await generate(repo, ["--spec", path, "--repo-root", "."]);
      expect(result.code, result.stderr).toBe(65);
      expect(result.stderr).toContain(message);
    }
  });
});

const SHFMT = `name: shfmt
target: {registry: ocx.sh, repository: shfmt}
source: {type: forgeone_release, owner: mvdan, repo: sh}
assets: {linux/amd64: ["shfmt_.*_linux_amd64$"]}
asset_type: {type: binary, name: shfmt}
tests: [{name: version, command: shfmt --version}]
platforms: {linux/amd64: {runner: ubuntu-latest}}
`;

describe("generate child", () => {
  it("prints the child pipeline of a plan: a prepare job per version, a test job per leg and container, push", async () => {
    const repo = await repository({ "tools/shfmt/mirror.yml": SHFMT });
    const plan = {
      schema_version: 1,
      target: "ocx.sh/shfmt",
      versions_resolved: { min_inclusive: true, max_inclusive: false },
      has_new: true,
      has_drift: false,
      versions: [
        {
          version: "3.9.0_20250101000000",
          source_version: "3.9.0",
          kind: "new",
          platforms: ["linux/amd64"],
          assets: [],
        },
      ],
      legs: {
        "linux/amd64": {
          runner: ["self-hosted", "x64"],
          platform_slug: "linux-amd64",
          container_platform: "linux/amd64",
          containers: [{ id: "native", shell: "bash" }],
          tests: [{ name: "version", command: "shfmt --version" }],
          prefix: [],
        },
      },
    };
    await writeFile(join(repo, "plan.json"), JSON.stringify(plan));
    const result = await runCli(
      mirrorBin,
      ["package", "pipeline", "generate", "child", "--plan", "plan.json", "--spec", "tools/shfmt/mirror.yml"],
      { cwd: repo },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^# Generated by pkg-mirror /);
    const child = parse(result.stdout);
    expect(Object.keys(child)).toEqual([
      "stages",
      ".pkg-mirror-toolchain",
      "prepare:3.9.0_20250101000000",
      "test:linux-amd64:native",
      "push",
    ]);
    expect(child["prepare:3.9.0_20250101000000"].needs).toEqual([
      { pipeline: "$PARENT_PIPELINE_ID", job: "discover-tools-shfmt" },
    ]);
    expect(child["test:linux-amd64:native"].tags).toEqual(["self-hosted", "x64"]);
    expect(child.push.resource_group).toBe("pkg-mirror-publish-tools-shfmt");

    const nothing = { ...plan, has_new: false, versions: [] };
    await writeFile(join(repo, "empty.json"), JSON.stringify(nothing));
    const empty = await runCli(
      mirrorBin,
      [
        "package",
        "pipeline",
        "generate",
        "child",
        "--plan",
        "empty.json",
        "--spec",
        "tools/shfmt/mirror.yml",
        "-o",
        "child.yml",
      ],
      { cwd: repo },
    );
    expect(empty.code, empty.stderr).toBe(0);
    expect(Object.keys(parse(await readFile(join(repo, "child.yml"), "utf8")))).toEqual([
      "stages",
      "nothing-to-do",
    ]);
  });
});
