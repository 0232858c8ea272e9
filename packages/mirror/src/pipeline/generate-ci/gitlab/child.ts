import type { PlanDocument } from "../../documents/plan-document.js";
import { commandLine, pipelineLine } from "../shell-line.js";
import { type SpecSlot, slotSuffix } from "../slot.js";
import { notifyArgs, prepareArgs, pushArgs, testArgs } from "../step-commands.js";
import {
  credentialLines,
  jobName,
  type Node,
  signIdToken,
  TOOLCHAIN_TEMPLATE,
  toolchainTemplate,
} from "./common.js";

export type ChildSlot = Pick<SpecSlot, "spec" | "dir" | "specPath">;

/** The child's stages, in order. */
export const CHILD_STAGES = ["prepare", "test", "push", "notify"] as const;

/**
 * The child pipeline of one run, rendered from `plan.json` when the run starts: a prepare job per
 * version (the plan from the parent's discover job), a test job per leg and container (the
 * runner labels as tags), then push and notify. Jobs after prepare take their inputs from every
 * earlier stage's artefacts (no `needs` list to outgrow) and run whatever failed before them, as
 * the push gating decides what is green. A plan without work renders one job saying so.
 */
export function gitlabChildPipeline(slot: ChildSlot, plan: PlanDocument): Node {
  const versions = plan.versions.filter((v) => v.kind !== "metadata-drift");
  if (!plan.has_new || versions.length === 0) {
    return {
      stages: ["prepare"],
      "nothing-to-do": {
        stage: "prepare",
        image: "alpine:3.20",
        script: [commandLine(["echo", `${plan.target}: nothing new to publish`])],
      },
    };
  }
  const { spec } = slot;
  const suffix = slotSuffix(slot.dir);
  const fromParent = { pipeline: "$PARENT_PIPELINE_ID", job: jobName("discover", slot) };
  const jobs: Node = {};
  for (const version of versions) {
    jobs[`prepare:${version.version}`] = {
      stage: "prepare",
      extends: TOOLCHAIN_TEMPLATE,
      needs: [fromParent],
      script: [pipelineLine(prepareArgs(slot, version.version))],
      artifacts: {
        name: `bundle-${version.version}`,
        // the plan travels on with the bundles: later stages read it from here
        paths: ["bundles/", "plan.json", ...(version.pylock === undefined ? [] : ["locks/"])],
        when: "always",
        expire_in: "1 day",
      },
    };
  }
  for (const [leg, settings] of Object.entries(plan.legs)) {
    for (const container of settings.containers) {
      jobs[`test:${settings.platform_slug}:${container.id}`] = {
        stage: "test",
        extends: TOOLCHAIN_TEMPLATE,
        tags: [...settings.runner],
        when: "always",
        script: ['export PKG_MIRROR_JOB_URL="$CI_JOB_URL"', pipelineLine(testArgs(leg, container.id))],
        artifacts: {
          name: `junit-${settings.platform_slug}-${container.id}`,
          paths: ["junit/"],
          reports: { junit: "junit/*.xml" },
          when: "always",
          expire_in: "1 day",
        },
      };
    }
  }
  jobs.push = {
    stage: "push",
    extends: TOOLCHAIN_TEMPLATE,
    when: "always",
    resource_group: `pkg-mirror-publish${suffix}`,
    ...signIdToken(spec),
    script: [
      ...credentialLines(spec, "push, tags and announce"),
      'export PKG_MIRROR_JOB_URL="$CI_JOB_URL"',
      pipelineLine(pushArgs(slot)),
    ],
    artifacts: { name: "run-summary", paths: ["run-summary.json"], when: "always", expire_in: "30 days" },
  };
  const chat = spec.notify?.chat;
  if (chat !== undefined) {
    jobs.notify = {
      stage: "notify",
      extends: TOOLCHAIN_TEMPLATE,
      when: "always",
      dependencies: ["push"],
      ...(chat.user_id === undefined ? {} : { variables: { PKG_MIRROR_CHAT_USER_ID: chat.user_id } }),
      script: [
        // silent when the run published nothing and nothing failed
        `export PKG_MIRROR_CHAT_HOOK="\${${chat.webhook_secret}:-}"`,
        `if [ -f run-summary.json ]; then ${pipelineLine(notifyArgs(slot))}; fi`,
      ],
    };
  }
  const used = new Set(Object.values(jobs).map((job) => (job as Node).stage));
  return {
    stages: CHILD_STAGES.filter((stage) => used.has(stage)),
    [TOOLCHAIN_TEMPLATE]: toolchainTemplate(),
    ...jobs,
  };
}
