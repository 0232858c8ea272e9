import { existsSync, readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isPkgError } from "@pkg/common";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { PlanDocument } from "../src/pipeline/documents/plan-document.js";
import { renderSpecs } from "../src/pipeline/generate-ci/generate.js";
import { expr } from "../src/pipeline/generate-ci/github/steps.js";
import { type ChildSlot, gitlabChildPipeline } from "../src/pipeline/generate-ci/gitlab/child.js";
import { headerLines } from "../src/pipeline/generate-ci/header.js";
import type { GeneratedFile } from "../src/pipeline/generate-ci/render.js";
import { yamlText } from "../src/pipeline/generate-ci/yaml-text.js";
import { planLegs } from "../src/pipeline/plan/legs.js";
import { loadMirrorSpec } from "../src/spec/loader.js";
import { actionlint, lintTools } from "./support/actionlint.js";
import { gitlabProblems, readGitlabFile } from "./support/gitlab-ci-check.js";

/**
 * Goldens of `generate ci`: every fixture spec of ../shared/fixtures/mirror-specs read in place
 * (a spec generate ci refuses there has its refusal as golden, and a copy given the files it
 * lacks has its workflows), the GitLab-style pipeline of each and the child pipeline of a plan,
 * and a repository of three specs (one extending a base outside its directory). Every generated
 * workflow passes actionlint with shellcheck; every GitLab file passes the structural checks.
 * UPDATE_GOLDEN=1 rewrites the goldens.
 */
const fixtures = fileURLToPath(new URL("../../../../shared/fixtures/mirror-specs/", import.meta.url));
const goldenDir = fileURLToPath(new URL("./golden/generate-ci/", import.meta.url));
const fixtureNames = readdirSync(fixtures)
  .filter((name) => name.endsWith(".yml"))
  .map((name) => name.replace(/\.yml$/, ""))
  .sort();
const VERSION = "0.0.0-golden";
const update = process.env.UPDATE_GOLDEN === "1";

let work: TempDir;
/** Every GitHub-style workflow rendered by any case, for one actionlint run. */
const workflows: Array<{ label: string; text: string }> = [];
/** Every GitLab-style file rendered, with its parent when it is a child. */
const gitlabFiles: Array<{ label: string; text: string; parent?: string }> = [];

beforeAll(async () => {
  work = await tempDir("pkg-mirror-generate-golden-");
});

afterAll(async () => {
  await work?.remove();
});

/** A golden file's name: the generated path without its leading dot directory. */
const goldenName = (path: string) => path.replace(/^\.github\//, "github/").replace(/^\./, "");

async function expectGolden(caseName: string, name: string, text: string): Promise<void> {
  const path = join(goldenDir, caseName, name);
  if (update) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
    return;
  }
  expect(existsSync(path), `golden ${caseName}/${name} is missing (UPDATE_GOLDEN=1 writes it)`).toBe(true);
  expect(text, `${caseName}/${name}`).toBe(await readFile(path, "utf8"));
}

/** The golden files of a case: every file it renders, and no others. */
async function expectGoldenSet(caseName: string, files: readonly GeneratedFile[]): Promise<void> {
  for (const file of files) await expectGolden(caseName, goldenName(file.path), file.text);
  if (update) return;
  const listed = listFiles(join(goldenDir, caseName)).filter((name) => !name.startsWith("child-"));
  expect(listed.sort()).toEqual(files.map((f) => goldenName(f.path)).sort());
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

async function render(specs: string[], repoRoot: string, forge: "forgeone" | "forgetwo") {
  return renderSpecs({ specs, repoRoot, forge, generatorVersion: VERSION, env: {} });
}

/** Renders a case both ways; goldens for each, the workflows kept for actionlint. */
async function goldenCase(caseName: string, specs: string[], repoRoot: string) {
  const github = await render(specs, repoRoot, "forgeone");
  await expectGoldenSet(caseName, [
    ...github.rendered.files,
    ...(await render(specs, repoRoot, "forgetwo")).rendered.files,
  ]);
  for (const file of github.rendered.files)
    workflows.push({ label: `${caseName}/${file.path}`, text: file.text });
  const gitlab = (await render(specs, repoRoot, "forgetwo")).rendered.files[0];
  if (gitlab) gitlabFiles.push({ label: `${caseName}/.gitlab-ci.yml`, text: gitlab.text });
  return github;
}

/** A plan with two versions of every platform the spec tests, as pipeline plan would write it. */
async function childGolden(caseName: string, specFile: string, repoRoot: string, specPath: string) {
  const loaded = await loadMirrorSpec(specFile, { repoRoot });
  const legs = planLegs(loaded.spec);
  const platforms = Object.keys(legs);
  const plan: PlanDocument = {
    schema_version: 1,
    target: `${loaded.spec.target?.registry}/${loaded.spec.target?.repository}`,
    versions_resolved: { min_inclusive: true, max_inclusive: false },
    has_new: true,
    has_drift: false,
    versions: ["1.0.0", "1.1.0"].map((v) => ({
      version: `${v}_20250101000000`,
      source_version: v,
      kind: "new" as const,
      platforms,
      assets: [],
    })),
    legs,
  };
  const slot: ChildSlot = {
    spec: loaded.spec,
    dir: dirname(specPath) === "." ? "" : dirname(specPath),
    specPath,
  };
  const text = yamlText(headerLines(VERSION, [specPath]), gitlabChildPipeline(slot, plan));
  await expectGolden(caseName, "child-gitlab-ci.yml", text);
  const parent = gitlabFiles.find((f) => f.label === `${caseName}/.gitlab-ci.yml`);
  gitlabFiles.push({ label: `${caseName}/child`, text, ...(parent ? { parent: parent.text } : {}) });
}

/** What a fixture lacks in place for generate ci to render it, supplied in a copy. */
const SUPPLIES: Record<string, string[]> = {
  "all-test-kinds": ["tests/smoke.star"],
  "generator-source": ["scripts/generate.py"],
};

describe("generate ci: goldens of the fixture specs, read in place", () => {
  for (const name of fixtureNames) {
    it(name, async () => {
      const spec = join(fixtures, `${name}.yml`);
      try {
        await goldenCase(name, [spec], fixtures);
        await childGolden(name, spec, fixtures, `${name}.yml`);
      } catch (error) {
        if (!isPkgError(error)) throw error;
        // refused in place: the refusal is the golden (the fixtures' directory written as <fixtures>)
        const message = error.message.replaceAll(fixtures.replace(/\/$/, ""), "<fixtures>");
        await expectGolden(name, "refused.txt", `exit ${error.exitCode}: ${message}\n`);
        if (!(name in SUPPLIES)) return;
        const repo = join(work.path, name);
        await mkdir(join(repo, ".git"), { recursive: true });
        await copyFile(spec, join(repo, "mirror.yml"));
        for (const file of SUPPLIES[name] ?? []) {
          await mkdir(dirname(join(repo, file)), { recursive: true });
          await writeFile(join(repo, file), "# supplied by the test\n");
        }
        await goldenCase(`${name}+supplied`, [join(repo, "mirror.yml")], repo);
        await childGolden(`${name}+supplied`, join(repo, "mirror.yml"), repo, "mirror.yml");
      }
    });
  }

  it("refuses in place exactly the fixtures that lack what generate ci needs", async () => {
    const refused = fixtureNames.filter((name) => existsSync(join(goldenDir, name, "refused.txt")));
    expect(refused).toEqual(["all-test-kinds", "generator-source", "pypi"]);
    const text = (name: string) => readFileSync(join(goldenDir, name, "refused.txt"), "utf8");
    // a script: resolving to nothing: 65, naming the path to write
    expect(text("all-test-kinds")).toMatch(/^exit 65: .*tests\/smoke\.star.*write it at tests\/smoke\.star/);
    expect(text("pypi")).toMatch(/^exit 65: .*generate ci needs tests/);
  });
});

describe("generate ci: a repository of three specs", () => {
  let repo: string;
  let files: GeneratedFile[];

  beforeAll(async () => {
    repo = join(work.path, "multi");
    await mkdir(join(repo, ".git"), { recursive: true });
    await mkdir(join(repo, "tools", "cmake"), { recursive: true });
    await mkdir(join(repo, "tools", "pycowsay"), { recursive: true });
    await mkdir(join(repo, "bases"), { recursive: true });
    await copyFile(join(fixtures, "ghcr-announce.yml"), join(repo, "mirror.yml"));
    await copyFile(join(fixtures, "full-platforms.yml"), join(repo, "tools", "cmake", "mirror.yml"));
    await copyFile(join(fixtures, "pypi.yml"), join(repo, "bases", "pypi.yml"));
    await writeFile(
      join(repo, "tools", "pycowsay", "mirror.yml"),
      [
        "extends: ../../bases/pypi.yml",
        "tests:",
        "  - name: says",
        "    command: pycowsay hello",
        "  - name: smoke",
        "    script: tests/pycowsay.star",
        "versions:",
        '  poll_interval: "0 */6 * * *"',
        "cascade:",
        '  schedule: "30 3 * * *"',
        "sign:",
        "  keyless:",
        "    cert_authority: env://PKG_CA_URL",
        "    log: https://log.example",
        "    identity_token: env://CI_ID_TOKEN",
        "notify:",
        "  chat:",
        "    webhook_secret: PYCOWSAY_CHAT",
        '    user_id: "123456789012345678"',
        "announce:",
        "  package: acme/pycowsay",
        '  schedule: "0 5 * * 1"',
        "allow_manual_edits: true",
        "",
      ].join("\n"),
    );
    await mkdir(join(repo, "tests"));
    await writeFile(join(repo, "tests", "pycowsay.star"), "expect.true(True)\n");
  });

  it("renders each spec's workflows with its suffix, distinct names and triggers, and one drift guard naming every spec", async () => {
    const specs = ["tools/pycowsay/mirror.yml", "mirror.yml", "tools/cmake/mirror.yml"].map((s) =>
      join(repo, s),
    );
    const github = await goldenCase("multi-spec", specs, repo);
    files = github.rendered.files;
    await childGolden(
      "multi-spec",
      join(repo, "tools", "pycowsay", "mirror.yml"),
      repo,
      "tools/pycowsay/mirror.yml",
    );
    expect(files.map((f) => f.path)).toEqual(
      [
        "announce-from-registry.yml",
        "cascade.yml",
        "cascade-tools-cmake.yml",
        "announce-from-registry-tools-pycowsay.yml",
        "cascade-tools-pycowsay.yml",
        "describe.yml",
        "describe-tools-cmake.yml",
        "describe-tools-pycowsay.yml",
        "mirror.yml",
        "mirror-tools-cmake.yml",
        "mirror-tools-pycowsay.yml",
        "patch.yml",
        "patch-tools-cmake.yml",
        "patch-tools-pycowsay.yml",
        "verify-generated.yml",
      ]
        .map((name) => `.github/workflows/${name}`)
        .sort(),
    );
    // biome-ignore lint/suspicious/noExplicitAny: parsed workflows are walked by the test's own paths
    const docs = new Map(files.map((f) => [f.path, parse(f.text) as Record<string, any>]));
    const names = [...docs.values()].map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    const workflow = (name: string) => docs.get(`.github/workflows/${name}`) ?? {};
    // a nested spec: its directory, its base outside it (the extends chain) and a script from the root
    expect(workflow("mirror-tools-pycowsay.yml").on.push.paths).toEqual([
      "tools/pycowsay/**",
      "bases/pypi.yml",
      "tests/pycowsay.star",
      ".github/workflows/mirror-tools-pycowsay.yml",
    ]);
    expect(workflow("mirror.yml").on.push.paths).toEqual(["mirror.yml", ".github/workflows/mirror.yml"]);
    expect(workflow("describe-tools-cmake.yml").on.push.paths).toEqual([
      "tools/cmake/**",
      ".github/workflows/describe-tools-cmake.yml",
    ]);
    for (const stem of ["patch", "cascade"])
      expect(workflow(`${stem}-tools-cmake.yml`).on.push).toBeUndefined();
    // nested invocations carry --spec, the root's never do
    expect(files.find((f) => f.path.endsWith("/mirror.yml"))?.text).not.toContain("--spec");
    expect(files.find((f) => f.path.endsWith("/mirror-tools-cmake.yml"))?.text).toContain(
      "pipeline plan --spec tools/cmake/mirror.yml -o plan.json",
    );
    // the plan artefact of the Python spec carries its derived locks
    expect(workflow("mirror-tools-pycowsay.yml").jobs.discover.steps.at(-1).with.path).toBe(
      "plan.json\nlocks/",
    );
    // one drift guard over every spec, watching the union of their triggers
    const guard = workflow("verify-generated.yml");
    expect(guard.jobs.verify.steps.at(-1).run).toBe(
      "pkg-mirror package pipeline generate ci --check --spec mirror.yml --spec tools/cmake/mirror.yml --spec tools/pycowsay/mirror.yml\n",
    );
    expect(guard.on.pull_request.paths).toEqual([
      ".github/workflows/**",
      "CATALOG.md",
      "bases/pypi.yml",
      "logo.*",
      "mirror.yml",
      "tests/pycowsay.star",
      "tools/cmake/**",
      "tools/pycowsay/**",
    ]);
    // the publish group is shared with the spec's cascade repair, and distinct per spec
    expect(workflow("cascade-tools-cmake.yml").concurrency.group).toBe(
      workflow("mirror-tools-cmake.yml").concurrency.group,
    );
    expect(workflow("mirror-tools-cmake.yml").concurrency.group).not.toBe(
      workflow("mirror.yml").concurrency.group,
    );

    // schedules: poll_interval on the mirror workflow, cascade and announce on theirs (dispatch stays)
    const pycowsay = (stem: string) => workflow(`${stem}-tools-pycowsay.yml`);
    expect(pycowsay("mirror").on.schedule).toEqual([{ cron: "0 */6 * * *" }]);
    expect(pycowsay("cascade").on).toMatchObject({ schedule: [{ cron: "30 3 * * *" }] });
    expect(pycowsay("cascade").on.workflow_dispatch.inputs.dry_run.default).toBe(true);
    expect(pycowsay("announce-from-registry").on.schedule).toEqual([{ cron: "0 5 * * 1" }]);
    expect(pycowsay("announce-from-registry").concurrency.group).toBe(
      "pkg-mirror-announce-from-registry-tools-pycowsay",
    );
    // keyless signing: env lines (secrets for the token, vars for the URL) and id-token on push and patch only
    const signEnv = { PKG_CA_URL: expr("vars.PKG_CA_URL"), CI_ID_TOKEN: expr("secrets.CI_ID_TOKEN") };
    const pushStep = pycowsay("mirror").jobs.push.steps.find(
      (step: { name: string }) => step.name === "Push",
    );
    expect(pushStep.env).toMatchObject(signEnv);
    expect(pycowsay("patch").jobs.patch.steps.at(-1).env).toMatchObject(signEnv);
    for (const [path, doc] of docs) {
      for (const [jobName, job] of Object.entries(
        doc.jobs as Record<string, { permissions: Record<string, string> }>,
      )) {
        const signs = path.endsWith("-tools-pycowsay.yml") && ["push", "patch"].includes(jobName);
        expect(job.permissions["id-token"], `${path} ${jobName}`).toBe(signs ? "write" : undefined);
      }
    }
    expect(pycowsay("mirror").jobs.notify.steps.at(-1).env).toEqual({
      PKG_MIRROR_CHAT_HOOK: expr("secrets.PYCOWSAY_CHAT"),
      PKG_MIRROR_CHAT_USER_ID: "123456789012345678",
    });
    // the forge's own registry (ghcr.io): the run's token and explicit package scopes
    expect(workflow("mirror.yml").jobs.push.permissions).toEqual({
      contents: "read",
      packages: "write",
      actions: "read",
      checks: "write",
      "pull-requests": "write",
    });
    expect(
      workflow("mirror.yml").jobs.push.steps.find((step: { name: string }) => step.name === "Push").env,
    ).toMatchObject({
      PKG_AUTH_GHCR_IO_USER: expr("github.actor"),
      PKG_AUTH_GHCR_IO_TOKEN: expr("secrets.GITHUB_TOKEN"),
    });
    // other registries: the organisation secrets, the step skipped with a notice without them
    const cmakePush = workflow("mirror-tools-cmake.yml").jobs.push.steps;
    expect(cmakePush.find((step: { name: string }) => step.name === "Push").if).toBe(
      "steps.creds.outputs.have == 'true'",
    );
    expect(cmakePush.find((step: { id?: string }) => step.id === "creds").run).toContain("::notice::");
    // only one spec allows manual edits: the guard stays, the others are named
    expect(github.rendered.warnings).toContain(
      "allow_manual_edits is not set in mirror.yml, tools/cmake/mirror.yml: the drift guard still checks every spec (set it in all of them to drop the guard)",
    );
    const gitlab = (await render(specs, repo, "forgetwo")).rendered.files[0]?.text ?? "";
    expect(gitlab).toContain("#   PKG_MIRROR_WORKFLOW=mirror-tools-pycowsay: 0 */6 * * *\n");
    expect(gitlab).toContain("#   PKG_MIRROR_WORKFLOW=cascade-tools-pycowsay: 30 3 * * *\n");
  });

  it("gives the same bytes whatever the order of --spec", async () => {
    const order = ["tools/cmake/mirror.yml", "tools/pycowsay/mirror.yml", "mirror.yml"].map((s) =>
      join(repo, s),
    );
    const again = await render(order, repo, "forgeone");
    expect(again.rendered.files).toEqual(files);
  });
});

describe("generated files are valid for their forge", () => {
  it("every GitHub-style workflow passes actionlint with shellcheck, with no finding", async () => {
    lintTools();
    expect(workflows.length, "the golden cases above render the workflows").toBeGreaterThan(30);
    const dir = join(work.path, "actionlint");
    await mkdir(dir, { recursive: true });
    const paths = await Promise.all(
      workflows.map(async ({ label, text }, i) => {
        const path = join(dir, `${i}-${label.replace(/[^A-Za-z0-9.-]/g, "_")}`);
        await writeFile(path, text);
        return path;
      }),
    );
    expect(actionlint(paths)).toEqual([]);
  });

  it("every GitLab-style file is valid YAML whose jobs name only stages, jobs and artefacts that exist", () => {
    expect(
      gitlabFiles.filter((f) => f.parent !== undefined).length,
      "the golden cases above render them",
    ).toBeGreaterThan(3);
    for (const file of gitlabFiles) {
      const parent =
        file.parent === undefined ? undefined : readGitlabFile(file.parent, `${file.label} parent`);
      expect(gitlabProblems(file.text, file.label, parent)).toEqual([]);
    }
  });
});
