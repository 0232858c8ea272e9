import { ExitCode } from "@pkg/common";
import { isMap, isScalar } from "yaml";
import { DEFAULT_CASCADE } from "./cascade.js";
import type { SectionContext } from "./context.js";
import { sameSchedule } from "./cron.js";
import type { MapField } from "./field.js";
import type { MirrorSpec, SectionName, TopFields } from "./mirror-spec.js";
import { matchSpecPlatformKey } from "./platform-key.js";
import { PYTHON_SOURCE_TYPES, type SourceType } from "./source.js";
import { openMap, sourceTypeOf } from "./top-fields.js";
import { versionGrammarProblem } from "./version-literal.js";
import { emptyWindowProblem } from "./version-window.js";

/**
 * The rules between `source`, `python`, `wheels`, `platforms`, `versions`, `cascade` and
 * `build_timestamp`: what a Python source needs and what only it may have, the wheels/platforms
 * cross-validation, the version grammar of the bounds, the schedule collision, and the advisory
 * warnings for an empty version window and for `build_timestamp: none` with cascade.
 */
export function checkPythonRules(
  spec: MirrorSpec,
  top: TopFields,
  root: MapField,
  ctx: SectionContext,
): void {
  const type = sourceTypeOf(spec, top);
  if (type !== undefined) {
    const python = PYTHON_SOURCE_TYPES.includes(type);
    if (python) checkPythonSource(type, top, root);
    else checkOtherSource(type, top);
    checkBoundGrammar(python, top);
    warnEmptyWindow(spec, python, top, ctx);
    if (python && spec.wheels && spec.platforms) checkWheelPlatforms(top);
  }
  checkScheduleCollision(spec, top);
  warnUntaggedDigests(spec, top, ctx);
}

function checkPythonSource(type: SourceType, top: TopFields, root: MapField): void {
  for (const key of ["python", "wheels"] as const) {
    if (!top.has(key))
      root.fail(`missing required key ${JSON.stringify(key)} (source type ${type} needs it)`);
  }
  const lock = openMap(top.get("python"))?.get("lock");
  if (type === "pylock" && lock?.present) {
    lock.fail(
      "python.lock is only supported for pypi sources; a pylock source uses its committed lock as is",
    );
  }
}

function checkOtherSource(type: SourceType, top: TopFields): void {
  for (const key of ["python", "wheels"] as const satisfies SectionName[]) {
    top.get(key)?.fail(`${key} applies only to pylock and pypi sources, not ${type}`);
  }
}

/**
 * A literal bound is read as either grammar; here it must be the source's: PEP 440 for a Python
 * app, the package version grammar for release and url-index sources.
 */
function checkBoundGrammar(python: boolean, top: TopFields): void {
  const versions = openMap(top.get("versions"));
  if (!versions) return;
  for (const key of ["min", "max"]) {
    const bound = versions.get(key);
    const edge = isMap(bound.value) ? openMap(bound)?.get("version") : bound;
    const node = edge?.value;
    if (!edge || !isScalar(node) || typeof node.value !== "string") continue;
    const problem = versionGrammarProblem(node.value, python);
    if (problem) edge.fail(problem);
  }
}

/** Literal `versions.min` and `max` that leave the window empty: advisory, the spec still loads. */
function warnEmptyWindow(spec: MirrorSpec, python: boolean, top: TopFields, ctx: SectionContext): void {
  const problem = spec.versions && emptyWindowProblem(spec.versions, python);
  const field = openMap(top.get("versions"))?.get("min");
  if (!problem || !field) return;
  ctx.warnings.push({ exitCode: ExitCode.Data, ...field.position(), keyPath: field.path, message: problem });
}

/**
 * Every wheels key's base os/arch is a declared platform, every declared platform is covered by a
 * wheels key, and platform keys stay plain (`os/arch`): the libc lives on the wheels key only.
 */
function checkWheelPlatforms(top: TopFields): void {
  const wheels = openMap(top.get("wheels"));
  const platforms = openMap(top.get("platforms"));
  if (!wheels || !platforms) return;
  const bases = new Set<string>();
  for (const { key, keyField } of platforms.fields()) {
    const platform = matchSpecPlatformKey(key);
    if (typeof platform === "string") continue;
    if (platform.variant !== undefined || platform.features.length > 0) {
      keyField.fail(
        `for a Python source platform keys stay plain (${platform.os}/${platform.architecture}); declare the libc on the wheels key`,
      );
    }
    bases.add(`${platform.os}/${platform.architecture}`);
  }
  const covered = new Set<string>();
  for (const { key, keyField } of wheels.fields()) {
    const wheel = matchSpecPlatformKey(key);
    if (typeof wheel === "string") continue;
    const base = `${wheel.os}/${wheel.architecture}`;
    covered.add(base);
    if (!bases.has(base))
      keyField.fail(
        `${base} is not declared under platforms; every wheels key needs a CI leg for its base platform`,
      );
  }
  for (const { key, keyField } of platforms.fields()) {
    const platform = matchSpecPlatformKey(key);
    if (typeof platform === "string") continue;
    const base = `${platform.os}/${platform.architecture}`;
    if (!covered.has(base))
      keyField.fail(`platform ${key} has no wheels key; add wheels.${base} (or a +libc key of it)`);
  }
}

function checkScheduleCollision(spec: MirrorSpec, top: TopFields): void {
  const schedule = spec.cascade?.schedule;
  const poll = spec.versions?.poll_interval;
  if (schedule === undefined || poll === undefined || !sameSchedule(schedule, poll)) return;
  openMap(top.get("cascade"))
    ?.get("schedule")
    .fail(
      "cascade.schedule equals versions.poll_interval; the repair and the mirror run share a concurrency group and would cancel each other every cycle",
    );
}

/** `build_timestamp: none` with cascade: re-pointing a bare tag leaves the old digest untagged. */
function warnUntaggedDigests(spec: MirrorSpec, top: TopFields, ctx: SectionContext): void {
  const field = top.get("build_timestamp");
  if (!field || spec.build_timestamp !== "none" || !(spec.cascade ?? DEFAULT_CASCADE).enabled) return;
  ctx.warnings.push({
    exitCode: ExitCode.Data,
    ...field.position(),
    keyPath: field.path,
    message:
      "none with cascade leaves each previous digest untagged when its tags move; a registry garbage collection may reap it and break consumers pinned by digest",
  });
}
