import { commandLine, script } from "../shell-line.js";
import { DRIFT_GUARD_STEM, type SpecSlot } from "../slot.js";
import { type Node, permissions, setupSteps } from "./steps.js";
import { describePaths, mirrorPaths } from "./triggers.js";

/**
 * `verify-generated.yml`, one per repository: on pull requests and pushes touching any spec's
 * inputs or a workflow, re-renders every spec and fails on a drifted or stale generated file.
 * `--spec` names every spec once there is more than one (or the only one is not the root
 * `mirror.yml`); `--repo-root .` when the specs alone would give another root.
 */
const WORKFLOWS = ".github/workflows/**";

export function driftGuardWorkflow(slots: readonly SpecSlot[], repoRootArg: boolean): Node {
  const inputs = slots.flatMap((slot) => [...mirrorPaths(slot), ...describePaths(slot)]);
  // every workflow file is watched as a whole
  const paths = [
    ...new Set([...inputs.filter((p) => !p.startsWith(".github/workflows/")), WORKFLOWS]),
  ].sort();
  const bare = slots.length === 1 && slots[0]?.specPath === "mirror.yml";
  const args = [
    "pkg-mirror",
    "package",
    "pipeline",
    "generate",
    "ci",
    "--check",
    ...(bare ? [] : slots.flatMap((slot) => ["--spec", slot.specPath])),
    ...(repoRootArg ? ["--repo-root", "."] : []),
  ];
  return {
    name: DRIFT_GUARD_STEM,
    on: { pull_request: { paths }, push: { paths } },
    permissions: { contents: "read" },
    defaults: { run: { shell: "bash" } },
    jobs: {
      verify: {
        name: "verify generated workflows",
        "runs-on": "ubuntu-latest",
        permissions: permissions({ contents: "read" }),
        steps: [
          ...setupSteps(),
          { name: "Compare with what the specs render", run: script([commandLine(args)]) },
        ],
      },
    },
  };
}
