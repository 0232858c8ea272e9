import { UV_RELEASE } from "../../plan/derive-lock.js";
import { describePaths, mirrorPaths } from "../github/triggers.js";
import { commandLine, pipelineLine } from "../shell-line.js";
import { type SpecSlot, slotStems, slotSuffix, specArgs } from "../slot.js";
import { planArgs } from "../step-commands.js";
import {
  credentialLines,
  gitlabGlob,
  jobName,
  type Node,
  signIdToken,
  TOOLCHAIN_TEMPLATE,
  toolchainTemplate,
} from "./common.js";

/** The one pipeline file of a GitLab-style repository. */
export const GITLAB_CI_PATH = ".gitlab-ci.yml";
/** What the parent's discover job writes for the trigger job: the child pipeline of this run. */
export const CHILD_PIPELINE_FILE = "child-pipeline.yml";
/** The variable a manual or scheduled pipeline sets to say which workflow it runs. */
export const WORKFLOW_VARIABLE = "PKG_MIRROR_WORKFLOW";

const MANUAL = '($CI_PIPELINE_SOURCE == "web" || $CI_PIPELINE_SOURCE == "api")';
const SCHEDULED = '$CI_PIPELINE_SOURCE == "schedule"';
const DEFAULT_BRANCH_PUSH = '$CI_PIPELINE_SOURCE == "push" && $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH';

/** Runs when a manual (or, with `scheduled`, a scheduled) pipeline names this workflow. */
function selected(workflow: string, scheduled: boolean): Node {
  const source = scheduled ? `(${MANUAL.slice(1, -1)} || ${SCHEDULED})` : MANUAL;
  return { if: `${source} && $${WORKFLOW_VARIABLE} == "${workflow}"` };
}

/**
 * `.gitlab-ci.yml`: the same pipeline for the second forge. Per spec a `discover` job plans and
 * renders the child pipeline from `plan.json`'s legs (`pipeline generate child`), and a trigger
 * job runs it (prepare per version, test per leg with the runner labels as tags, push, notify);
 * `describe`, `patch`, `cascade` and the catch-up announce run when a manual or scheduled pipeline
 * names them in `PKG_MIRROR_WORKFLOW` (schedules are set in the project, with that variable);
 * the drift guard runs on merge requests and pushes.
 */
export function gitlabPipeline(
  slots: readonly SpecSlot[],
  options: { guarded: boolean; repoRootArg: boolean },
): Node {
  const workflows = slots.flatMap((slot) =>
    slotStems(slot.spec).map((stem) => `${stem}${slotSuffix(slot.dir)}`),
  );
  const jobs: Node = {};
  for (const slot of slots) Object.assign(jobs, specJobs(slot));
  if (options.guarded) jobs["verify-generated"] = driftGuardJob(slots, options.repoRootArg);
  return {
    workflow: {
      rules: [
        // one pipeline per push: the merge request's, not also the branch's
        { if: '$CI_PIPELINE_SOURCE == "push" && $CI_OPEN_MERGE_REQUESTS', when: "never" },
        { when: "always" },
      ],
    },
    stages: ["plan", "publish", "verify"],
    variables: {
      [WORKFLOW_VARIABLE]: {
        value: workflows[0] ?? "mirror",
        options: workflows,
        description: "What a manual or scheduled pipeline runs (a schedule sets it too)",
      },
      DRY_RUN: {
        value: "true",
        description: "cascade and announce-from-registry: true reports only (schedules repair for real)",
      },
      VERSIONS: {
        value: "",
        description: "patch: versions, separated by commas or spaces (empty: every published version)",
      },
      MIN_VERSION: { value: "", description: "patch: lowest version (inclusive)" },
      MAX_VERSION: { value: "", description: "patch: highest version (exclusive)" },
    },
    [TOOLCHAIN_TEMPLATE]: toolchainTemplate(),
    ...jobs,
  };
}

/**
 * GitLab keeps schedules in the project, not in the file: the lines telling which to create, each
 * with its `PKG_MIRROR_WORKFLOW` value (crons in UTC, as the specs give them).
 */
export function scheduleNotes(slots: readonly SpecSlot[]): string[] {
  const rows = slots.flatMap((slot) => {
    const suffix = slotSuffix(slot.dir);
    const cascade = slot.spec.cascade;
    return [
      [`mirror${suffix}`, slot.spec.versions?.poll_interval],
      [`cascade${suffix}`, cascade?.enabled ? cascade.schedule : undefined],
      [`announce-from-registry${suffix}`, slot.spec.announce?.schedule],
    ].filter((row): row is [string, string] => row[1] !== undefined);
  });
  if (rows.length === 0) return [];
  return [
    `Schedules to create in the project (CI/CD > Schedules, cron in UTC, variable ${WORKFLOW_VARIABLE}):`,
    ...rows.map(([workflow, cron]) => `  ${WORKFLOW_VARIABLE}=${workflow}: ${cron}`),
  ];
}

function specJobs(slot: SpecSlot): Node {
  const { spec } = slot;
  const suffix = slotSuffix(slot.dir);
  const discover = jobName("discover", slot);
  const python = spec.source?.type === "pypi" || spec.source?.type === "pylock";
  const mirrorRules = [
    { if: DEFAULT_BRANCH_PUSH, changes: mirrorPaths(slot, GITLAB_CI_PATH).map(gitlabGlob) },
    selected(`mirror${suffix}`, true),
  ];
  const jobs: Node = {
    [discover]: {
      stage: "plan",
      extends: TOOLCHAIN_TEMPLATE,
      rules: mirrorRules,
      script: [
        ...credentialLines(spec),
        // a pypi version's lock is derived by uv while planning: pipx from the image's Debian
        ...(spec.source?.type === "pypi"
          ? [
              "apt-get update -qq && apt-get install -y -qq --no-install-recommends pipx >/dev/null",
              `pipx install "uv==${UV_RELEASE}" && export PATH="$HOME/.local/bin:$PATH"`,
            ]
          : []),
        pipelineLine(planArgs(slot)),
        pipelineLine([
          "generate",
          "child",
          ...specArgs(slot),
          "--plan",
          "plan.json",
          "-o",
          CHILD_PIPELINE_FILE,
        ]),
      ],
      artifacts: {
        name: "plan",
        paths: ["plan.json", ...(python ? ["locks/"] : []), CHILD_PIPELINE_FILE],
        expire_in: "1 day",
      },
    },
    [jobName("publish", slot)]: {
      stage: "publish",
      needs: [discover],
      rules: mirrorRules,
      variables: { PARENT_PIPELINE_ID: "$CI_PIPELINE_ID" },
      trigger: { include: [{ artifact: CHILD_PIPELINE_FILE, job: discover }], strategy: "depend" },
    },
  };
  const stems = slotStems(spec);
  // announce and signing credentials are CI variables: the jobs see them as they are
  const main = (rules: Node[], script: string[], extra: Node = {}): Node => ({
    stage: "publish",
    extends: TOOLCHAIN_TEMPLATE,
    rules,
    ...extra,
    script,
  });
  jobs[jobName("describe", slot)] = main(
    [
      { if: DEFAULT_BRANCH_PUSH, changes: describePaths(slot, GITLAB_CI_PATH).map(gitlabGlob) },
      selected(`describe${suffix}`, false),
    ],
    [...credentialLines(spec, "describe"), pipelineLine(["describe", ...specArgs(slot)])],
  );
  jobs[jobName("patch", slot)] = main(
    [selected(`patch${suffix}`, false)],
    [
      ...credentialLines(spec, "patch"),
      "set -f; set --",
      "for version in $(printf '%s' \"$VERSIONS\" | tr ',' ' '); do set -- \"$@\" --version \"$version\"; done",
      'if [ -n "$MIN_VERSION" ]; then set -- "$@" --min-version "$MIN_VERSION"; fi',
      'if [ -n "$MAX_VERSION" ]; then set -- "$@" --max-version "$MAX_VERSION"; fi',
      `${pipelineLine(["patch", ...specArgs(slot), "--metadata-only"])} "$@"`,
    ],
    signIdToken(spec),
  );
  if (stems.includes("cascade")) {
    jobs[jobName("cascade", slot)] = main(
      [selected(`cascade${suffix}`, true)],
      [...credentialLines(spec, "cascade repair"), ...dryRunLines(["cascade", ...specArgs(slot)])],
      { resource_group: `pkg-mirror-publish${suffix}` },
    );
  }
  if (stems.includes("announce-from-registry")) {
    jobs[jobName("announce-from-registry", slot)] = main(
      [selected(`announce-from-registry${suffix}`, true)],
      [...credentialLines(spec, "announce"), ...dryRunLines(["announce", ...specArgs(slot)])],
      { resource_group: `pkg-mirror-announce-from-registry${suffix}` },
    );
  }
  return jobs;
}

/** A scheduled pipeline does it for real; otherwise `DRY_RUN` (default true) decides. */
function dryRunLines(command: readonly string[]): string[] {
  return [
    `if [ "$CI_PIPELINE_SOURCE" = schedule ] || [ "$DRY_RUN" = false ]; then ${pipelineLine(command)}; else ${pipelineLine([...command, "--dry-run"])}; fi`,
  ];
}

function driftGuardJob(slots: readonly SpecSlot[], repoRootArg: boolean): Node {
  const paths = [
    ...new Set([
      ...slots.flatMap((slot) => [
        ...mirrorPaths(slot, GITLAB_CI_PATH),
        ...describePaths(slot, GITLAB_CI_PATH),
      ]),
    ]),
  ]
    .sort()
    .map(gitlabGlob);
  const bare = slots.length === 1 && slots[0]?.specPath === "mirror.yml";
  return {
    stage: "verify",
    extends: TOOLCHAIN_TEMPLATE,
    rules: [
      { if: '$CI_PIPELINE_SOURCE == "merge_request_event"', changes: paths },
      { if: '$CI_PIPELINE_SOURCE == "push"', changes: paths },
    ],
    script: [
      commandLine([
        "pkg-mirror",
        "package",
        "pipeline",
        "generate",
        "ci",
        "--forge",
        "forgetwo",
        "--check",
        ...(bare ? [] : slots.flatMap((slot) => ["--spec", slot.specPath])),
        ...(repoRootArg ? ["--repo-root", "."] : []),
      ]),
    ],
  };
}
