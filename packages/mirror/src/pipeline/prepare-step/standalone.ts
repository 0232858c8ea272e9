import { ExitCode, PkgError } from "@pkg/common";
import type { LoadedSpec } from "../../spec/loader.js";
import type { PlanVersion } from "../documents/plan-document.js";
import { type PipelinePlanOptions, planPipeline } from "../plan/plan-pipeline.js";

/** A tag without its build stamp: `1.2.3_20260101120000` and `slim-1.2.3_20260101` give `1.2.3` and `slim-1.2.3`. */
const unstamped = (tag: string) => tag.replace(/_\d{8}(\d{6})?$/, "");

/**
 * `pipeline prepare` without `--plan`: plans here, exactly as `pipeline plan` would, and takes the
 * entry `tag` names. The tag may be the plan's (its build stamp then need not be this plan's: the
 * version is prepared under the tag given) or the bare one (`1.2.3`, `slim-1.2.3`), which takes
 * this plan's primary tag.
 */
export async function standalonePlanVersion(
  loaded: LoadedSpec,
  tag: string,
  options: Omit<PipelinePlanOptions, "python"> & { python?: PipelinePlanOptions["python"] },
): Promise<PlanVersion> {
  const { document } = await planPipeline(loaded, { python: { locksDir: "./locks" }, ...options });
  const building = document.versions.filter((v) => v.kind !== "metadata-drift");
  const exact = building.find((v) => v.version === tag);
  if (exact) return exact;
  const same = building.find((v) => unstamped(v.version) === unstamped(tag));
  if (same) return tag === unstamped(tag) ? same : { ...same, version: tag };
  throw new PkgError(
    ExitCode.Data,
    `version ${tag} has nothing to prepare: ${building.length > 0 ? `the plan holds ${building.map((v) => v.version).join(", ")}` : "the target is up to date"}`,
  );
}
