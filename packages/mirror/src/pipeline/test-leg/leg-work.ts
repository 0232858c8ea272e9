import { dataError } from "@pkg/common";
import { parsePlatformKey, platformSlug } from "@pkg/package";
import {
  bundleFileName,
  bundleMetadataFileName,
  junitFileName,
  junitSuiteName,
} from "../documents/artifacts.js";
import type { PlanContainer, PlanDocument, PlanLeg, PlanTest } from "../documents/plan-document.js";
import { gatingContainers } from "../gating/gating-containers.js";

/** One leg of a plan, found by its key in any spelling. */
export function findLeg(plan: PlanDocument, key: string): { legKey: string; leg: PlanLeg } {
  const wanted = parsePlatformKey(key).key; // a bad key is 64
  for (const [legKey, leg] of Object.entries(plan.legs)) {
    if (legKey === key || parsePlatformKey(legKey).key === wanted) return { legKey, leg };
  }
  const known = Object.keys(plan.legs);
  throw dataError(
    `--leg ${key}: plan.json has no such leg (${known.length === 0 ? "it has no legs: the spec has no platforms" : `legs: ${known.join(", ")}`})`,
  );
}

/** The containers of a leg to run: the one `--container` names, else all of them. */
export function selectContainers(legKey: string, leg: PlanLeg, id: string | undefined): PlanContainer[] {
  if (id === undefined) return leg.containers;
  const found = leg.containers.find((c) => c.id === id);
  if (found === undefined) {
    throw dataError(
      `--container ${id}: leg ${legKey} has no such container (containers: ${leg.containers.map((c) => c.id).join(", ")})`,
    );
  }
  return [found];
}

/** What one container of a leg tests in one version: the entries it gates, into one JUnit file. */
export interface VersionWork {
  /** The plan's `version`: the primary tag. */
  tag: string;
  /** `PKG_VERSION`: the upstream version. */
  pkgVersion: string;
  container: PlanContainer;
  /** File name, in the JUnit directory: `junit-<tag>-<leg slug>-<container>.xml`. */
  junitFile: string;
  entries: EntryWork[];
}

export interface EntryWork {
  /** Full platform key: `package test --platform`. */
  platform: string;
  /** The suite (and classname) of this entry's cases: `junitSuiteName(tag, slug of the entry, container)`. */
  suite: string;
  /** File names, in the bundles directory. */
  bundle: string;
  metadata: string;
  tests: PlanTest[];
}

/**
 * What a leg's containers test: for each container and each version of the plan (`metadata-drift`
 * entries never; only `versions` when given, each of which must be in the plan), the entries of
 * the version the container gates on this leg (the rule push gates by). A version with none is
 * left out. A suite is named by the entry's own slug: it is the leg's slug unless the leg tests an
 * entry of its base key (`linux/amd64+libc.musl` on leg `linux/amd64`).
 */
export function legWork(
  plan: PlanDocument,
  leg: PlanLeg,
  containers: readonly PlanContainer[],
  versions?: readonly string[],
): VersionWork[] {
  if (versions !== undefined) {
    const known = plan.versions.map((v) => v.version);
    const unknown = versions.filter((tag) => !known.includes(tag));
    if (unknown.length > 0) {
      throw dataError(
        `--version ${unknown.join(", ")}: not in plan.json (versions: ${known.length === 0 ? "none" : known.join(", ")})`,
      );
    }
  }
  const work: VersionWork[] = [];
  for (const container of containers) {
    for (const version of plan.versions) {
      if (version.kind === "metadata-drift") continue;
      if (versions !== undefined && !versions.includes(version.version)) continue;
      const entries: EntryWork[] = [];
      for (const platform of version.platforms) {
        const gating = gatingContainers(platform, plan.legs);
        if (!gating.covered || gating.leg !== leg || !gating.containers.includes(container)) continue;
        const slug = platformSlug(parsePlatformKey(platform));
        entries.push({
          platform,
          suite: junitSuiteName(version.version, slug, container.id),
          bundle: bundleFileName(version.version, slug),
          metadata: bundleMetadataFileName(version.version, slug),
          tests: leg.tests,
        });
      }
      if (entries.length === 0) continue;
      work.push({
        tag: version.version,
        pkgVersion: version.source_version,
        container,
        junitFile: junitFileName(version.version, leg.platform_slug, container.id),
        entries,
      });
    }
  }
  return work;
}
