import { readAnnotations } from "./annotations.js";
import { readAnnounce } from "./announce.js";
import { readAssetType } from "./asset-type.js";
import { readAssets } from "./assets.js";
import { readBinScan } from "./bin-scan.js";
import { readBuildTimestamp } from "./build-timestamp.js";
import { readCascade } from "./cascade.js";
import { readCatalog } from "./catalog.js";
import { readConcurrency } from "./concurrency.js";
import type { SectionContext } from "./context.js";
import { applyDefaults } from "./defaults.js";
import type { Field, MapField } from "./field.js";
import { readMetadataPaths } from "./metadata.js";
import { readNotify } from "./notify.js";
import { readPkgMirror } from "./pkg-mirror.js";
import { readPlatforms } from "./platforms.js";
import { readPython } from "./python.js";
import { checkPipelineRules } from "./rules-pipeline.js";
import { checkPythonRules } from "./rules-python.js";
import { checkSourceRules } from "./rules-source.js";
import { readSign } from "./sign.js";
import { readSource } from "./source.js";
import { readTarget } from "./target.js";
import { readTests } from "./tests.js";
import { readVariants } from "./variants.js";
import { readVerify } from "./verify.js";
import { readVersions } from "./versions.js";
import { readWheels } from "./wheels.js";

type Reader<T> = (field: Field, ctx: SectionContext) => T | undefined;
type Model<R> = R extends Reader<infer T> ? T : never;

/**
 * Every top-level key of mirror.yml and its reader (one file per spec section). The key set is
 * closed: anything else is refused at load.
 */
const sections = {
  name: (f: Field) => f.string({ nonEmpty: true }),
  target: readTarget,
  source: readSource,
  assets: readAssets,
  variants: readVariants,
  metadata: readMetadataPaths,
  bin_scan: readBinScan,
  libc_lint: (f: Field) => f.boolean(),
  asset_type: readAssetType,
  python: readPython,
  wheels: readWheels,
  wheel_scope: (f: Field) =>
    f.matching(
      /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*$/,
      "a repository path prefix",
    ),
  skip_prereleases: (f: Field) => f.boolean(),
  build_timestamp: readBuildTimestamp,
  cascade: readCascade,
  versions: readVersions,
  verify: readVerify,
  concurrency: readConcurrency,
  tests: readTests,
  platforms: readPlatforms,
  pkg_mirror: readPkgMirror,
  sign: readSign,
  notify: readNotify,
  announce: readAnnounce,
  annotations: readAnnotations,
  catalog: readCatalog,
  // `generate ci` disarms the drift guard only when every spec of the repository sets it
  allow_manual_edits: (f: Field) => f.boolean(),
  // resolved by the loader before the sections are read; its value is the parent's path
  extends: (f: Field) => f.string({ nonEmpty: true }),
} satisfies Record<string, Reader<unknown>>;

export type SectionName = keyof typeof sections;
export const TOP_LEVEL_KEYS = Object.keys(sections) as SectionName[];
export const REQUIRED_KEYS: readonly SectionName[] = ["name", "target", "source"];

/** The whole spec as loaded: one optional model per section (absent keys stay undefined). */
export type MirrorSpec = { -readonly [K in SectionName]?: Model<(typeof sections)[K]> };

/** The top-level fields after the `extends` merge: each from the file that declared it. */
export type TopFields = Map<SectionName, Field>;

/**
 * Reads every section, then the rules that span sections, then fills the defaults of absent keys.
 * Problems land in the fields' diagnostics.
 */
export function readMirrorSpec(top: TopFields, root: MapField, ctx: SectionContext): MirrorSpec {
  const spec: MirrorSpec = {};
  for (const key of REQUIRED_KEYS)
    if (!top.has(key)) root.fail(`missing required key ${JSON.stringify(key)}`);
  for (const [key, field] of top) {
    const read = sections[key] as Reader<unknown>;
    (spec as Record<string, unknown>)[key] = read(field, ctx);
  }
  checkSourceRules(spec, top, root, ctx);
  checkPythonRules(spec, top, root, ctx);
  checkPipelineRules(spec, top, root, ctx);
  applyDefaults(spec, ctx);
  return spec;
}
