import { parsePlatformKey, platformSlug } from "@pkg/package";
import { imageLibc, matchImageRef } from "../../spec/image-ref.js";
import type { MirrorSpec } from "../../spec/mirror-spec.js";
import type { ContainerLeg } from "../../spec/platform-container.js";
import type { PlatformLeg } from "../../spec/platforms.js";
import { NATIVE_CONTAINER_ID, type PlanContainer, type PlanLeg } from "../documents/plan-document.js";

/**
 * The CI matrix of `plan.json`: one leg per `platforms:` key (canonical, in spec order), every
 * default resolved, so another forge renders its pipeline from the plan alone. `{}` without
 * `platforms`.
 */
export function planLegs(spec: Pick<MirrorSpec, "platforms" | "tests">): Record<string, PlanLeg> {
  return Object.fromEntries(
    Object.entries(spec.platforms ?? {}).map(([key, leg]) => [key, planLeg(key, leg, spec.tests ?? [])]),
  );
}

function planLeg(key: string, leg: PlatformLeg, topTests: NonNullable<MirrorSpec["tests"]>): PlanLeg {
  const platform = parsePlatformKey(key);
  return {
    runner: [...leg.runner],
    platform_slug: platformSlug(platform),
    // the key without its `+libc.*` features: what a container engine takes as its platform
    container_platform: [platform.os, platform.architecture, platform.variant]
      .filter((part) => part !== undefined)
      .join("/"),
    containers: leg.containers?.map(planContainer) ?? [{ id: NATIVE_CONTAINER_ID, shell: leg.shell }],
    // a platform's own list replaces the top-level one, never merges with it
    tests: (leg.tests ?? topTests).map((test) => ({ ...test })),
    prefix: [...leg.prefix],
  };
}

function planContainer(container: ContainerLeg): PlanContainer {
  const ref = matchImageRef(container.image);
  const libc = typeof ref === "string" ? undefined : imageLibc(ref);
  return {
    id: container.id,
    image: container.image,
    shell: container.shell,
    ...(libc === undefined ? {} : { libc }),
    ...(container.setup === undefined ? {} : { setup: [...container.setup] }),
  };
}
