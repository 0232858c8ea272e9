import { PkgError } from "@pkg/common";
import { checkVariantName } from "@pkg/package";
import { type AssetTypeSpec, readAssetType } from "./asset-type.js";
import { type AssetsSpec, readAssets } from "./assets.js";
import { type BinScan, readBinScan } from "./bin-scan.js";
import type { SectionContext } from "./context.js";
import { type Field, MapField } from "./field.js";
import { type MetadataPaths, readMetadataPaths } from "./metadata.js";

/**
 * One entry of `variants`: a named asset set published under its own tag prefix (the default one
 * unprefixed). An omitted override inherits the top-level value.
 */
export interface VariantSpec {
  /** Tag prefix, `^[a-z][a-z0-9.]*$`, never `latest`; absent only on an unnamed default. */
  name?: string;
  /** Published unprefixed; exactly one variant sets it. Default false. */
  default: boolean;
  assets: AssetsSpec;
  metadata?: MetadataPaths;
  bin_scan?: BinScan;
  libc_lint?: boolean;
  asset_type?: AssetTypeSpec;
}

const VARIANT_KEYS = ["name", "default", "assets", "metadata", "bin_scan", "libc_lint", "asset_type"];

export function readVariants(field: Field, ctx: SectionContext): VariantSpec[] | undefined {
  const items = field.list({ nonEmpty: true });
  if (!items) return undefined;
  const names = new Set<string>();
  let defaultAt: string | undefined;
  let defaultsKnown = true;
  const variants: Array<VariantSpec | undefined> = [];
  for (const item of items) {
    const map = item.map();
    if (!map) {
      defaultsKnown = false;
      variants.push(undefined);
      continue;
    }
    const name = readName(map, names);
    const scope = variantScope(map, name);
    scope.only(VARIANT_KEYS);
    const isDefault = readDefault(scope, defaultAt);
    if (isDefault === undefined) defaultsKnown = false;
    if (isDefault) defaultAt ??= scope.path;
    if (isDefault === false && !map.has("name")) map.fail('only the default variant may omit "name"');
    variants.push(readBody(scope, ctx, name, isDefault));
  }
  if (defaultAt === undefined && defaultsKnown) {
    return field.fail("exactly one variant must set default: true (it is published without a tag prefix)");
  }
  return variants.every((v): v is VariantSpec => v !== undefined) ? variants : undefined;
}

/**
 * The variant's mapping, addressed by name (`variants.musl`) once the name is known to be valid and
 * unique, so problems inside it name the variant; by position otherwise.
 */
export function variantScope(map: MapField, name: string | undefined): MapField {
  if (name === undefined) return map;
  return new MapField(map.source, map.diagnostics, map.node, `variants.${name}`, map.anchor);
}

function readName(map: MapField, seen: Set<string>): string | undefined {
  const field = map.get("name");
  if (!field.present) return undefined;
  const name = field.string({ nonEmpty: true });
  if (name === undefined) return undefined;
  try {
    checkVariantName(name);
  } catch (error) {
    if (error instanceof PkgError) return field.fail(error.message);
    throw error;
  }
  if (seen.has(name)) return field.fail(`variant name ${JSON.stringify(name)} is given twice`);
  seen.add(name);
  return name;
}

/** The variant's `default` flag (false when absent), refusing a second default. */
function readDefault(scope: MapField, earlier: string | undefined): boolean | undefined {
  const field = scope.get("default");
  if (!field.present) return false;
  const value = field.boolean();
  if (value && earlier !== undefined) {
    return field.fail(`only one variant may set default: true; ${earlier} already does`);
  }
  return value;
}

function readBody(
  scope: MapField,
  ctx: SectionContext,
  name: string | undefined,
  isDefault: boolean | undefined,
): VariantSpec | undefined {
  const assetsField = scope.require("assets");
  const assets = assetsField && readAssets(assetsField);
  const metadata = optional(scope.get("metadata"), (f) => readMetadataPaths(f, ctx));
  const bin_scan = optional(scope.get("bin_scan"), readBinScan);
  const libc_lint = optional(scope.get("libc_lint"), (f) => f.boolean());
  const asset_type = optional(scope.get("asset_type"), readAssetType);
  if (assets === undefined || isDefault === undefined || (name === undefined && scope.has("name")))
    return undefined;
  if (metadata === null || bin_scan === null || libc_lint === null || asset_type === null) return undefined;
  return {
    ...(name === undefined ? {} : { name }),
    default: isDefault,
    assets,
    ...(metadata === undefined ? {} : { metadata }),
    ...(bin_scan === undefined ? {} : { bin_scan }),
    ...(libc_lint === undefined ? {} : { libc_lint }),
    ...(asset_type === undefined ? {} : { asset_type }),
  };
}

/** An optional key: undefined when absent, null when present and refused. */
function optional<T>(field: Field, read: (field: Field) => T | undefined): T | undefined | null {
  if (!field.present) return undefined;
  return read(field) ?? null;
}
