import { type Forge, registryAccess } from "../access.js";
import { pipelineLine, script } from "../shell-line.js";
import { type SpecSlot, specArgs, workflowName } from "../slot.js";
import { ownGroup, publishGroup } from "./groups.js";
import {
  announceEnv,
  credentialsGate,
  credentialsProbe,
  DEFAULT_BRANCH_ONLY,
  expr,
  type Node,
  permissions,
  registryEnv,
  setupSteps,
  signEnv,
} from "./steps.js";
import { describeTriggers, dryRunDispatch, schedule } from "./triggers.js";

/** One job on ubuntu-latest: set-up, the credential probe, then `main` (gated on credentials). */
function singleJobWorkflow(
  slot: SpecSlot,
  forge: Forge,
  parts: {
    stem: string;
    on: Record<string, unknown>;
    group: string;
    job: string;
    scopes: { own: Record<string, "read" | "write">; other: Record<string, "read" | "write"> };
    signs?: boolean;
    skipped: string;
    main: { name: string; env: Record<string, string>; run: string };
    jobIf?: string;
  },
): Node {
  const access = registryAccess(slot.spec, forge);
  return {
    name: workflowName(parts.stem, slot),
    on: parts.on,
    permissions: {},
    concurrency: { group: parts.group, "cancel-in-progress": false },
    defaults: { run: { shell: "bash" } },
    jobs: {
      [parts.job]: {
        name: parts.job,
        ...(parts.jobIf === undefined ? {} : { if: parts.jobIf }),
        "runs-on": "ubuntu-latest",
        permissions: permissions(access.own ? parts.scopes.own : parts.scopes.other, {
          spec: slot.spec,
          signs: parts.signs === true,
        }),
        steps: [
          ...setupSteps(),
          ...credentialsProbe(access, parts.skipped),
          {
            name: parts.main.name,
            ...credentialsGate(access),
            env: { ...registryEnv(access), ...parts.main.env },
            run: parts.main.run,
          },
        ],
      },
    },
  };
}

/** `describe.yml`: publishes the catalog README and logo when they (or the spec) change, or on dispatch. */
export function describeWorkflow(slot: SpecSlot, forge: Forge): Node {
  return singleJobWorkflow(slot, forge, {
    stem: "describe",
    on: describeTriggers(slot),
    group: ownGroup("describe", slot),
    job: "describe",
    jobIf: DEFAULT_BRANCH_ONLY,
    scopes: { own: { contents: "read", packages: "write" }, other: { contents: "read" } },
    skipped: "describe",
    main: { name: "Describe", env: {}, run: script([pipelineLine(["describe", ...specArgs(slot)])]) },
  });
}

/**
 * `patch.yml`: republishes published versions' metadata, on dispatch only. The version inputs
 * reach the script through the environment and are split there, never interpolated into it.
 */
export function patchWorkflow(slot: SpecSlot, forge: Forge): Node {
  const input = (description: string) => ({ description, type: "string", required: false, default: "" });
  return singleJobWorkflow(slot, forge, {
    stem: "patch",
    on: {
      workflow_dispatch: {
        inputs: {
          versions: input(
            "Versions to patch, separated by commas or spaces (empty: every published version)",
          ),
          min_version: input("Lowest version to patch (inclusive)"),
          max_version: input("Highest version to patch (exclusive)"),
        },
      },
    },
    group: ownGroup("patch", slot),
    job: "patch",
    scopes: { own: { contents: "read", packages: "write" }, other: { contents: "read" } },
    signs: true,
    skipped: "patch",
    main: {
      name: "Patch",
      env: {
        VERSIONS: expr("inputs.versions"),
        MIN_VERSION: expr("inputs.min_version"),
        MAX_VERSION: expr("inputs.max_version"),
        ...announceEnv(slot.spec),
        ...signEnv(slot.spec),
      },
      run: [
        "set -f",
        "select=()",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
        'for version in ${VERSIONS//,/ }; do select+=(--version "$version"); done',
        'if [ -n "$MIN_VERSION" ]; then select+=(--min-version "$MIN_VERSION"); fi',
        'if [ -n "$MAX_VERSION" ]; then select+=(--max-version "$MAX_VERSION"); fi',
        `${pipelineLine(["patch", ...specArgs(slot), "--metadata-only"])} "\${select[@]}"`,
        "",
      ].join("\n"),
    },
  });
}

/** `if [ "$DRY_RUN" = false ]`: anything but false (the dispatch default) stays a dry run. */
function dryRunScript(command: readonly string[]): string {
  return [
    'if [ "$DRY_RUN" = false ]; then',
    `  ${pipelineLine(command)}`,
    "else",
    `  ${pipelineLine([...command, "--dry-run"])}`,
    "fi",
    "",
  ].join("\n");
}

/** `dry_run` from the dispatch input; false on a scheduled run (it repairs for real). */
const DRY_RUN = expr("github.event_name == 'schedule' && 'false' || inputs.dry_run");

/**
 * `cascade.yml`: re-points rolling tags left behind. Dispatch (dry run by default), and on the
 * spec's `cascade.schedule` for real; in the publish concurrency group of the mirror workflow.
 */
export function cascadeWorkflow(slot: SpecSlot, forge: Forge): Node {
  const cascade = slot.spec.cascade;
  return singleJobWorkflow(slot, forge, {
    stem: "cascade",
    on: { ...dryRunDispatch("the repair"), ...schedule(cascade?.enabled ? cascade.schedule : undefined) },
    group: publishGroup(slot),
    job: "cascade",
    scopes: { own: { contents: "read", packages: "write" }, other: { contents: "read" } },
    skipped: "cascade repair",
    main: {
      name: "Cascade",
      env: { DRY_RUN, ...announceEnv(slot.spec) },
      run: dryRunScript(["cascade", ...specArgs(slot)]),
    },
  });
}

/**
 * `announce-from-registry.yml`: unions every tag the target holds onto the index entry. Dispatch
 * (dry run by default), and on `announce.schedule` for real; its own concurrency group.
 */
export function announceWorkflow(slot: SpecSlot, forge: Forge): Node {
  return singleJobWorkflow(slot, forge, {
    stem: "announce-from-registry",
    on: { ...dryRunDispatch("the announce"), ...schedule(slot.spec.announce?.schedule) },
    group: ownGroup("announce-from-registry", slot),
    job: "announce",
    scopes: { own: { contents: "read", packages: "read" }, other: { contents: "read" } },
    skipped: "announce",
    main: {
      name: "Announce",
      env: { DRY_RUN, ...announceEnv(slot.spec) },
      run: dryRunScript(["announce", ...specArgs(slot)]),
    },
  });
}
