import { type HostPlatform, libcOf, parsePlatformKey } from "@pkg/package";
import type { PlanDocument } from "../documents/plan-document.js";

/** A (leg, container) of the plan, and whether this host runs it. */
export type HostLeg =
  | { leg: string; container: string; runs: true }
  | { leg: string; container: string; runs: false; why: string };

/**
 * Which of the plan's test legs this host runs: native containers of legs for its own os and
 * architecture (and libc, when the key names one). Container legs and other platforms are
 * listed with why they are not run here; their JUnit files never appear, so push keeps their
 * platforms red (fail closed).
 */
export function hostLegs(plan: Pick<PlanDocument, "legs">, host: HostPlatform): HostLeg[] {
  return Object.entries(plan.legs).flatMap(([leg, settings]) => {
    const key = parsePlatformKey(leg);
    const libc = libcOf(key);
    const foreign =
      key.os !== host.os || key.architecture !== host.architecture
        ? `a ${key.os}/${key.architecture} leg; this host is ${host.os}/${host.architecture}`
        : libc !== undefined && libc !== host.libc
          ? `a ${libc} leg; this host's libc is ${host.libc ?? "none"}`
          : undefined;
    return settings.containers.map((c): HostLeg => {
      if (c.image !== undefined)
        return { leg, container: c.id, runs: false, why: `a container leg (${c.image}): CI runs it` };
      return foreign === undefined
        ? { leg, container: c.id, runs: true }
        : { leg, container: c.id, runs: false, why: foreign };
    });
  });
}
