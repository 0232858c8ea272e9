import type { MirrorSpec } from "../../../spec/mirror-spec.js";
import { UV_RELEASE } from "../../plan/derive-lock.js";
import { planLegs } from "../../plan/legs.js";
import { type Forge, registryAccess } from "../access.js";
import { pipelineLine, script, shellVariable } from "../shell-line.js";
import { type SpecSlot, workflowName, workflowPath } from "../slot.js";
import { notifyArgs, planArgs, prepareArgs, pushArgs, testArgs } from "../step-commands.js";
import { publishGroup } from "./groups.js";
import {
  announceEnv,
  credentialsGate,
  credentialsProbe,
  DEFAULT_BRANCH_ONLY,
  downloadStep,
  expr,
  jobUrlEnv,
  jobUrlLines,
  type Node,
  permissions,
  registryEnv,
  setupSteps,
  signEnv,
  uploadStep,
} from "./steps.js";
import { mirrorTriggers } from "./triggers.js";

/** Artefact names shared by both forges' pipelines. */
export const ARTEFACTS = {
  plan: "plan",
  bundle: (version: string) => `bundle-${version}`,
  junit: (slug: string, container: string) => `junit-${slug}-${container}`,
  summary: "run-summary",
} as const;

const HAS_NEW = "needs.discover.outputs.has_new == 'true'";
const TEST_JOB_NAME = `test ${expr("matrix.leg")} (${expr("matrix.container")})`;

/**
 * `mirror.yml`: discover (plan once, the plan shipped as an artefact) → prepare (a job per
 * version) → test (a job per leg and container, JUnit uploaded even on failure) → push (gates on
 * the JUnit files, writes run-summary.json, exports any_new_green/any_red/announce) → notify (only
 * when something happened). Everything after discover runs only when the plan has new work.
 */
export function mirrorWorkflow(slot: SpecSlot, forge: Forge): Node {
  const { spec } = slot;
  return {
    name: workflowName("mirror", slot),
    on: mirrorTriggers(slot),
    permissions: {},
    concurrency: { group: publishGroup(slot), "cancel-in-progress": false },
    defaults: { run: { shell: "bash" } },
    jobs: {
      discover: discoverJob(slot, forge),
      prepare: prepareJob(slot),
      test: testJob(slot),
      push: pushJob(slot, forge),
      ...(spec.notify ? { notify: notifyJob(slot) } : {}),
    },
  };
}

function discoverJob(slot: SpecSlot, forge: Forge): Node {
  const { spec } = slot;
  const access = registryAccess(spec, forge);
  const python = spec.source?.type === "pypi" || spec.source?.type === "pylock";
  const env: Record<string, string> = {
    ...(spec.source?.type === "forgeone_release" ? { FORGEONE_TOKEN: expr("github.token") } : {}),
    ...registryEnv(access),
  };
  return {
    name: "discover",
    if: DEFAULT_BRANCH_ONLY,
    "runs-on": "ubuntu-latest",
    permissions: permissions(access.own ? { contents: "read", packages: "read" } : { contents: "read" }),
    outputs: {
      has_new: expr("steps.plan.outputs.has_new"),
      versions: expr("steps.plan.outputs.versions"),
      target: expr("steps.plan.outputs.target"),
    },
    steps: [
      ...setupSteps(),
      // a pypi version's lock is derived by uv while planning (the runner's pipx installs it)
      ...(spec.source?.type === "pypi"
        ? [
            {
              name: "Install the lock resolver",
              env: { UV_VERSION: UV_RELEASE },
              run: `pipx install "uv==\${UV_VERSION}"\n`,
            },
          ]
        : []),
      {
        name: "Plan",
        id: "plan",
        env,
        run: [
          pipelineLine(planArgs(slot)),
          "{",
          `  echo "has_new=$(jq -r '.has_new' plan.json)"`,
          `  echo "versions=$(jq -c '[.versions[] | select(.kind != "metadata-drift") | .version]' plan.json)"`,
          `  echo "target=$(jq -r '.target' plan.json)"`,
          '} >> "$GITHUB_OUTPUT"',
          "",
        ].join("\n"),
      },
      uploadStep("Upload the plan", ARTEFACTS.plan, python ? ["plan.json", "locks/"] : ["plan.json"]),
    ],
  };
}

function prepareJob(slot: SpecSlot): Node {
  return {
    name: `prepare ${expr("matrix.version")}`,
    needs: "discover",
    if: HAS_NEW,
    "runs-on": "ubuntu-latest",
    permissions: permissions({ contents: "read" }),
    strategy: { "fail-fast": false, matrix: { version: expr("fromJSON(needs.discover.outputs.versions)") } },
    steps: [
      ...setupSteps(),
      downloadStep("Download the plan", { name: ARTEFACTS.plan }, "."),
      {
        name: "Prepare",
        env: { VERSION: expr("matrix.version") },
        run: script([pipelineLine(prepareArgs(slot, shellVariable("VERSION")))]),
      },
      // a version with a failed platform still hands on its other bundles and its manifest
      uploadStep("Upload the bundles", ARTEFACTS.bundle(expr("matrix.version")), ["bundles/"], {
        always: true,
      }),
    ],
  };
}

/** The test matrix: one entry per (leg, container) of the spec's platforms, in spec order. */
export function testMatrix(spec: MirrorSpec): Array<Record<string, unknown>> {
  return Object.entries(planLegs(spec)).flatMap(([leg, settings]) =>
    settings.containers.map((container) => ({
      leg,
      slug: settings.platform_slug,
      container: container.id,
      runner: settings.runner.length === 1 ? settings.runner[0] : settings.runner,
    })),
  );
}

function testJob(slot: SpecSlot): Node {
  return {
    name: TEST_JOB_NAME,
    needs: ["discover", "prepare"],
    // a version whose prepare failed must not keep the other versions untested
    if: `!cancelled() && ${HAS_NEW}`,
    "runs-on": expr("matrix.runner"),
    permissions: permissions({ contents: "read", actions: "read" }),
    strategy: { "fail-fast": false, matrix: { include: testMatrix(slot.spec) } },
    steps: [
      ...setupSteps(),
      downloadStep("Download the plan", { name: ARTEFACTS.plan }, "."),
      downloadStep("Download the bundles", { pattern: "bundle-*" }, "bundles"),
      {
        name: "Test",
        env: { LEG: expr("matrix.leg"), CONTAINER: expr("matrix.container"), ...jobUrlEnv(TEST_JOB_NAME) },
        run: [
          ...jobUrlLines(),
          pipelineLine(testArgs(shellVariable("LEG"), shellVariable("CONTAINER"))),
          "",
        ].join("\n"),
      },
      uploadStep(
        "Upload the JUnit files",
        ARTEFACTS.junit(expr("matrix.slug"), expr("matrix.container")),
        ["junit/"],
        {
          always: true,
        },
      ),
    ],
  };
}

function pushJob(slot: SpecSlot, forge: Forge): Node {
  const { spec } = slot;
  const access = registryAccess(spec, forge);
  const scopes: Record<string, "read" | "write"> = {
    contents: "read",
    ...(access.own ? { packages: "write" as const } : {}),
    actions: "read",
    checks: "write",
    "pull-requests": "write",
  };
  return {
    name: "push",
    needs: ["discover", "prepare", "test"],
    if: `!cancelled() && ${HAS_NEW}`,
    "runs-on": "ubuntu-latest",
    permissions: permissions(scopes, { spec, signs: true }),
    outputs: {
      any_new_green: expr("steps.summary.outputs.any_new_green"),
      any_red: expr("steps.summary.outputs.any_red"),
      announce: expr("steps.summary.outputs.announce"),
    },
    steps: [
      ...setupSteps(),
      downloadStep("Download the plan", { name: ARTEFACTS.plan }, "."),
      downloadStep("Download the bundles", { pattern: "bundle-*" }, "bundles"),
      downloadStep("Download the JUnit files", { pattern: "junit-*" }, "junit"),
      ...credentialsProbe(access, "push, tags and announce"),
      {
        name: "Push",
        id: "push",
        ...credentialsGate(access),
        env: { ...registryEnv(access), ...announceEnv(spec), ...signEnv(spec), ...jobUrlEnv("push") },
        run: [...jobUrlLines(), pipelineLine(pushArgs(slot)), ""].join("\n"),
      },
      {
        name: "Summarise",
        id: "summary",
        if: "always()",
        env: { PUSH_OUTCOME: expr("steps.push.outcome") },
        run: [
          "if [ -f run-summary.json ]; then",
          "  {",
          `    echo "any_new_green=$(jq -r '.any_new_green' run-summary.json)"`,
          `    echo "any_red=$(jq -r '.any_red' run-summary.json)"`,
          `    echo "announce=$(jq -r '.announce.status // "unconfigured"' run-summary.json)"`,
          '  } >> "$GITHUB_OUTPUT"',
          'elif [ "$PUSH_OUTCOME" = skipped ]; then',
          `  printf '%s\\n' any_new_green=false any_red=false announce=not_run >> "$GITHUB_OUTPUT"`,
          "else",
          `  printf '%s\\n' any_new_green=false any_red=true announce=not_run >> "$GITHUB_OUTPUT"`,
          "fi",
          "",
        ].join("\n"),
      },
      uploadStep("Upload the run summary", ARTEFACTS.summary, ["run-summary.json"], {
        always: true,
        retentionDays: 30,
      }),
    ],
  };
}

/** Something to tell: a version published or red, or an announce that did not go through. */
const SOMETHING_HAPPENED = [
  "needs.push.outputs.any_new_green == 'true'",
  "needs.push.outputs.any_red == 'true'",
  ...["failed", "interrupted", "skipped_no_credential"].map((s) => `needs.push.outputs.announce == '${s}'`),
].join(" || ");

function notifyJob(slot: SpecSlot): Node {
  const chat = slot.spec.notify?.chat;
  return {
    name: "notify",
    needs: ["discover", "push"],
    if: `!cancelled() && ${HAS_NEW} && (${SOMETHING_HAPPENED})`,
    "runs-on": "ubuntu-latest",
    permissions: permissions({ contents: "read" }),
    steps: [
      ...setupSteps(),
      downloadStep("Download the run summary", { name: ARTEFACTS.summary }, "."),
      {
        name: "Notify",
        env: {
          PKG_MIRROR_CHAT_HOOK: expr(`secrets.${chat?.webhook_secret ?? ""}`),
          ...(chat?.user_id === undefined ? {} : { PKG_MIRROR_CHAT_USER_ID: chat.user_id }),
        },
        run: script([pipelineLine(notifyArgs(slot))]),
      },
    ],
  };
}

export const mirrorWorkflowPath = (slot: SpecSlot) => workflowPath("mirror", slot.dir);
