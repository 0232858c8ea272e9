import { type Forge, ownerWarning } from "./access.js";
import {
  announceWorkflow,
  cascadeWorkflow,
  describeWorkflow,
  patchWorkflow,
} from "./github/aux-workflows.js";
import { driftGuardWorkflow } from "./github/drift-guard.js";
import { mirrorWorkflow } from "./github/mirror-workflow.js";
import type { Node } from "./github/steps.js";
import { GITLAB_CI_PATH, gitlabPipeline, scheduleNotes } from "./gitlab/parent.js";
import { headerLines } from "./header.js";
import { DRIFT_GUARD_STEM, type SpecSlot, slotStems, type WorkflowStem, workflowPath } from "./slot.js";
import { yamlText } from "./yaml-text.js";

/** One file `generate ci` writes: repository-relative path and its whole text. */
export interface GeneratedFile {
  path: string;
  text: string;
}

export interface RenderOptions {
  /** The renderer's own version, in the header. */
  generatorVersion: string;
  forge: Forge;
  /** Whether the drift guard must say `--repo-root .` (the specs alone would give another root). */
  repoRootArg: boolean;
  /** The owner of the repository the workflows run in, when known (for the target owner warning). */
  owner?: string;
}

export interface Rendered {
  /** Sorted by path. */
  files: GeneratedFile[];
  warnings: string[];
}

const GITHUB_WORKFLOWS: Record<WorkflowStem, (slot: SpecSlot, forge: Forge) => Node> = {
  mirror: mirrorWorkflow,
  describe: describeWorkflow,
  patch: patchWorkflow,
  cascade: cascadeWorkflow,
  "announce-from-registry": announceWorkflow,
};

/**
 * Everything the specs render, as text: pure (no files read), so the same specs always give the
 * same bytes. GitHub-style: each spec's workflows plus one drift guard (unless every spec allows
 * manual edits); GitLab-style: one pipeline file.
 */
export function renderCi(slots: readonly SpecSlot[], options: RenderOptions): Rendered {
  const warnings: string[] = [];
  for (const slot of slots) {
    const warning = ownerWarning(slot.spec, options.forge, options.owner);
    if (warning) warnings.push(`${slot.specPath}: ${warning}`);
  }
  const dissenters = slots.filter((slot) => slot.spec.allow_manual_edits !== true);
  const guarded = dissenters.length > 0;
  if (guarded && dissenters.length < slots.length) {
    warnings.push(
      `allow_manual_edits is not set in ${dissenters.map((s) => s.specPath).join(", ")}: the drift guard still checks every spec (set it in all of them to drop the guard)`,
    );
  }
  const files: GeneratedFile[] = [];
  const header = (sources: readonly string[], notes: readonly string[] = []) =>
    headerLines(options.generatorVersion, sources, notes);
  if (options.forge === "forgetwo") {
    files.push({
      path: GITLAB_CI_PATH,
      text: yamlText(
        header(
          slots.map((s) => s.specPath),
          scheduleNotes(slots),
        ),
        gitlabPipeline(slots, { guarded, repoRootArg: options.repoRootArg }),
      ),
    });
    return { files, warnings };
  }
  for (const slot of slots) {
    for (const stem of slotStems(slot.spec)) {
      const workflow = GITHUB_WORKFLOWS[stem](slot, options.forge);
      files.push({ path: workflowPath(stem, slot.dir), text: yamlText(header([slot.specPath]), workflow) });
    }
  }
  if (guarded) {
    files.push({
      path: workflowPath(DRIFT_GUARD_STEM, ""),
      text: yamlText(header(slots.map((s) => s.specPath)), driftGuardWorkflow(slots, options.repoRootArg)),
    });
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, warnings };
}
