import { libcOf, matchPlatformKey } from "@pkg/package";
import type { PlanContainer, PlanLeg } from "../documents/plan-document.js";

/** Which leg, and which of its containers, decide whether a (version, platform) entry is pushed. */
export type GatingSelection =
  | { covered: true; legKey: string; leg: PlanLeg; containers: PlanContainer[] }
  /** No leg tests the entry (or none of its containers may): it fails closed, `no_test_leg`. */
  | { covered: false; message: string };

/**
 * The leg and containers gating a pushed entry (a full platform key). The leg is the one keyed by
 * the entry's key, else the one keyed by its base key (the key without `+libc.*`). Within it:
 * a `+libc.musl` entry is gated only by musl images, a `+libc.glibc` entry by glibc images and
 * the native container (CI runners are glibc hosts), a featureless entry by every container. An
 * entry no leg covers, or whose leg has no container of its libc, fails closed.
 */
export function gatingContainers(entryKey: string, legs: Readonly<Record<string, PlanLeg>>): GatingSelection {
  const key = matchPlatformKey(entryKey);
  if (typeof key === "string")
    return { covered: false, message: `${entryKey} is not a platform key: ${key}` };
  const base =
    key.variant === undefined
      ? `${key.os}/${key.architecture}`
      : `${key.os}/${key.architecture}/${key.variant}`;
  const legKey = [key.key, base].find((candidate) => legOf(legs, candidate) !== undefined);
  const leg = legKey === undefined ? undefined : legOf(legs, legKey);
  if (legKey === undefined || leg === undefined) {
    const keys = key.key === base ? key.key : `${key.key} nor ${base}`;
    return { covered: false, message: `no test leg covers ${key.key}: platforms has neither ${keys}` };
  }
  const libc = libcOf(key);
  const containers = leg.containers.filter((container) => {
    if (libc === undefined) return true;
    if (container.image === undefined) return libc === "glibc";
    return container.libc === libc;
  });
  if (containers.length === 0) {
    const by = libc === "glibc" ? "glibc images and native legs" : `${libc} images`;
    return {
      covered: false,
      message: `leg ${legKey} has no container that may test ${key.key}: a +libc.${libc} entry is gated only by ${by}`,
    };
  }
  return { covered: true, legKey, leg, containers };
}

/** The leg keyed by `key`, comparing keys in their canonical spelling. */
function legOf(legs: Readonly<Record<string, PlanLeg>>, key: string): PlanLeg | undefined {
  const exact = legs[key];
  if (exact !== undefined) return exact;
  for (const [written, leg] of Object.entries(legs)) {
    const parsed = matchPlatformKey(written);
    if (typeof parsed !== "string" && parsed.key === key) return leg;
  }
  return undefined;
}
