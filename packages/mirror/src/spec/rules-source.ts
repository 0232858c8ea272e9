import { ExitCode, PkgError } from "@pkg/common";
import { type Metadata, parseMetadata } from "@pkg/package";
import { type BinScan, DEFAULT_BIN_SCAN } from "./bin-scan.js";
import { pathIsBareInstallPath, scanDirectories } from "./bin-scan-target.js";
import { resolveIn, type SectionContext } from "./context.js";
import type { Field, MapField } from "./field.js";
import { type MetadataPaths, metadataFiles } from "./metadata.js";
import type { MirrorSpec, TopFields } from "./mirror-spec.js";
import { PYTHON_SOURCE_TYPES, type SourceType } from "./source.js";
import { openMap, sourceTypeOf } from "./top-fields.js";
import { variantScope } from "./variants.js";

/**
 * The rules between `source` and the asset sections: which of `assets` / `variants` / `metadata`
 * / `asset_type` each source type takes, and that an enabled `bin_scan` has something to scan in
 * every metadata file it can meet.
 */
export function checkSourceRules(
  spec: MirrorSpec,
  top: TopFields,
  root: MapField,
  ctx: SectionContext,
): void {
  const type = sourceTypeOf(spec, top);
  if (type === undefined) return;
  if (PYTHON_SOURCE_TYPES.includes(type)) {
    checkPythonSource(type, top, ctx);
    return;
  }
  checkAssetSource(type, top, root);
  checkBinScanTargets(spec, top, ctx);
}

function checkPythonSource(type: SourceType, top: TopFields, ctx: SectionContext): void {
  top
    .get("variants")
    ?.fail(`variants is not supported for source type ${type}; wheels selects what is published`);
  top
    .get("metadata")
    ?.fail(
      `metadata is not supported for source type ${type}; the package metadata is composed from the wheels`,
    );
  for (const key of ["assets", "asset_type"] as const) {
    const field = top.get(key);
    if (!field) continue;
    ctx.warnings.push({
      exitCode: ExitCode.Data,
      ...field.position(),
      keyPath: field.path,
      message: `${key} is ignored for source type ${type}: wheels selects what is published`,
    });
  }
}

function checkAssetSource(type: SourceType, top: TopFields, root: MapField): void {
  const variants = top.get("variants");
  if (!top.has("assets") && !variants) {
    root.fail(`source type ${type} needs "assets" (or "variants"): which upstream asset each platform gets`);
  } else if (top.has("assets") && variants) {
    variants.fail('variants replaces the top-level "assets"; give one of them, not both');
  }
}

/** One place where a metadata block is selected, with the bin_scan mode in force there. */
interface Selection {
  mode: BinScan;
  paths: MetadataPaths;
  field: Field;
  /** Which variant selects it, in words: `variant musl`, `the default variant`. */
  variant?: string;
}

function checkBinScanTargets(spec: MirrorSpec, top: TopFields, ctx: SectionContext): void {
  const cache = new Map<string, Metadata | string>();
  for (const selection of selections(spec, top)) {
    if (selection.mode === "off") continue;
    const block = openMap(selection.field);
    for (const { path, at } of metadataFiles(selection.paths)) {
      const [first = "", second] = at;
      const field = second === undefined ? block?.get(first) : openMap(block?.get(first))?.get(second);
      if (field) checkFile(selection, path, field, ctx, cache);
    }
  }
}

/** Every metadata block a build can use: the top-level one, or each variant's own or inherited one. */
function selections(spec: MirrorSpec, top: TopFields): Selection[] {
  const topMode = spec.bin_scan ?? DEFAULT_BIN_SCAN;
  const topField = top.get("metadata");
  if (!top.has("variants")) {
    return spec.metadata && topField ? [{ mode: topMode, paths: spec.metadata, field: topField }] : [];
  }
  const items = spec.variants ? top.get("variants")?.list() : undefined;
  const out: Selection[] = [];
  spec.variants?.forEach((variant, i) => {
    const item = openMap(items?.[i]);
    const mode = variant.bin_scan ?? topMode;
    const label = variant.name === undefined ? "the default variant" : `variant ${variant.name}`;
    if (variant.metadata && item) {
      out.push({
        mode,
        paths: variant.metadata,
        field: variantScope(item, variant.name).get("metadata"),
        variant: label,
      });
    } else if (spec.metadata && topField) {
      out.push({ mode, paths: spec.metadata, field: topField, variant: label });
    }
  });
  return out;
}

function checkFile(
  selection: Selection,
  path: string,
  field: Field,
  ctx: SectionContext,
  cache: Map<string, Metadata | string>,
): void {
  const where = selection.variant === undefined ? "" : ` (${selection.variant})`;
  const metadata = readMetadata(resolveIn(ctx.specDir, path), path, ctx, cache);
  if (typeof metadata === "string") {
    field.fail(`bin_scan: ${selection.mode}${where} needs valid metadata: ${metadata}`);
    return;
  }
  if (scanDirectories(metadata).length > 0) return;
  if (selection.mode === "auto" && metadata.binaries !== undefined) return;
  const why = pathIsBareInstallPath(metadata)
    ? `its PATH is the bare \${installPath}, which is not scanned`
    : `it declares no \${installPath}/<dir> path variable visible to consumers`;
  const fix =
    selection.mode === "auto"
      ? `point PATH at \${installPath}/<dir>, declare binaries, or set bin_scan: off`
      : `point PATH at \${installPath}/<dir> or set bin_scan: off (a declared binaries list does not exempt verify)`;
  field.fail(`bin_scan: ${selection.mode}${where} has no scan target in ${path}: ${why}; ${fix}`);
}

function readMetadata(
  absolute: string,
  path: string,
  ctx: SectionContext,
  cache: Map<string, Metadata | string>,
): Metadata | string {
  const known = cache.get(absolute);
  if (known !== undefined) return known;
  let result: Metadata | string;
  const text = ctx.files.readText(absolute);
  if (text === undefined) result = `${path}: cannot be read`;
  else {
    try {
      result = parseMetadata(text, path);
    } catch (error) {
      if (!(error instanceof PkgError)) throw error;
      result = error.message;
    }
  }
  cache.set(absolute, result);
  return result;
}
