import { ExitCode } from "@pkg/common";
import { isScalar, isSeq } from "yaml";
import type { SectionContext } from "./context.js";
import { sameSchedule } from "./cron.js";
import type { MapField } from "./field.js";
import type { MirrorSpec, TopFields } from "./mirror-spec.js";
import { PYTHON_SOURCE_TYPES } from "./source.js";
import { openMap } from "./top-fields.js";
import { versionGrammarProblem } from "./version-literal.js";

/**
 * Rules between the pipeline sections (`tests`, `platforms`, `sign`, `notify`, `announce`,
 * `annotations`, `catalog`, `pkg_mirror`) and the rest: platform version bounds follow the source's
 * version grammar, and `announce.schedule` should differ from `versions.poll_interval` (advisory;
 * the cascade collision, which is refused, lives with the Python and schedule rules).
 */
export function checkPipelineRules(
  spec: MirrorSpec,
  top: TopFields,
  _root: MapField,
  ctx: SectionContext,
): void {
  checkPlatformBoundGrammar(spec, top);
  warnAnnounceSchedule(spec, top, ctx);
}

/**
 * Platform bounds and excludes are read as either grammar (the source may not be known yet);
 * here they must be the source's: PEP 440 for a Python app, the package grammar otherwise.
 */
function checkPlatformBoundGrammar(spec: MirrorSpec, top: TopFields): void {
  const type = spec.source?.type;
  if (type === undefined || spec.platforms === undefined) return;
  const python = PYTHON_SOURCE_TYPES.includes(type);
  for (const { field } of openMap(top.get("platforms"))?.fields() ?? []) {
    const leg = openMap(field);
    if (!leg) continue;
    const bounds = [leg.get("min_version"), leg.get("max_version")];
    const exclude = leg.get("exclude");
    if (isSeq(exclude.value)) {
      for (const item of exclude.list() ?? []) {
        const entry = openMap(item);
        if (entry) bounds.push(entry.get("version"), entry.get("min_version"), entry.get("max_version"));
      }
    }
    for (const bound of bounds) {
      const node = bound.value;
      if (!isScalar(node) || typeof node.value !== "string") continue;
      const problem = versionGrammarProblem(node.value, python);
      if (problem) bound.fail(problem);
    }
  }
}

function warnAnnounceSchedule(spec: MirrorSpec, top: TopFields, ctx: SectionContext): void {
  const schedule = spec.announce?.schedule;
  const poll = spec.versions?.poll_interval;
  if (schedule === undefined || poll === undefined || !sameSchedule(schedule, poll)) return;
  const field = openMap(top.get("announce"))?.get("schedule");
  if (!field) return;
  ctx.warnings.push({
    exitCode: ExitCode.Data,
    ...field.position(),
    keyPath: field.path,
    message:
      "announce.schedule equals versions.poll_interval; give the catch-up announce a different cron so it does not run alongside every mirror run",
  });
}
