import { type SpecSlot, workflowPath } from "../slot.js";

/**
 * The `push` path lists. A root spec's mirror workflow watches its spec (the whole `extends`
 * chain), test scripts, metadata and other plan inputs; a nested spec's watches `<dir>/**` and
 * whatever of those lives outside it. Each list ends with the workflow's own file.
 */
export function mirrorPaths(slot: SpecSlot, own = workflowPath("mirror", slot.dir)): string[] {
  return watched(slot, [...slot.chain, ...slot.scripts, ...slot.metadataFiles, ...slot.planInputs], own);
}

/** The describe workflow's paths: the catalog README and logo (and the spec chain naming them). */
export function describePaths(slot: SpecSlot, own = workflowPath("describe", slot.dir)): string[] {
  return watched(slot, [...slot.catalogPaths, ...slot.chain], own);
}

function watched(slot: SpecSlot, inputs: readonly string[], own: string): string[] {
  if (slot.dir === "") return [...sortedUnique(inputs), own];
  const under = `${slot.dir}/`;
  return [`${slot.dir}/**`, ...sortedUnique(inputs.filter((path) => !path.startsWith(under))), own];
}

function sortedUnique(items: readonly string[]): string[] {
  return [...new Set(items)].sort();
}

/** Schedules: `- cron: '<expr>'` from the spec's cron, verbatim. */
export function schedule(cron: string | undefined): Record<string, unknown> {
  return cron === undefined ? {} : { schedule: [{ cron }] };
}

export function mirrorTriggers(slot: SpecSlot): Record<string, unknown> {
  return {
    workflow_dispatch: {},
    push: { paths: mirrorPaths(slot) },
    ...schedule(slot.spec.versions?.poll_interval),
  };
}

export function describeTriggers(slot: SpecSlot): Record<string, unknown> {
  return { workflow_dispatch: {}, push: { paths: describePaths(slot) } };
}

/** A boolean `dry_run` dispatch input, default true. */
export function dryRunDispatch(what: string): Record<string, unknown> {
  return {
    workflow_dispatch: {
      inputs: {
        dry_run: {
          description: `Report what ${what} would do, change nothing (scheduled runs do it for real)`,
          type: "boolean",
          default: true,
        },
      },
    },
  };
}
