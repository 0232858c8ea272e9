import type { SectionContext } from "./context.js";
import type { Field } from "./field.js";

/** `pkg_mirror`: provenance of the mirroring tool behind a plan, echoed as `pkg_mirror_rev`; pins nothing. */
export interface PkgMirrorSpec {
  rev?: string;
}

const REV = /^[0-9a-f]{40}$/;

export function readPkgMirror(field: Field, _ctx: SectionContext): PkgMirrorSpec | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["rev"]);
  if (!map.has("rev")) return map.keys.length === 0 ? {} : undefined;
  const rev = map.get("rev").matching(REV, "a 40-character lowercase hex git commit SHA");
  return rev === undefined ? undefined : { rev };
}
