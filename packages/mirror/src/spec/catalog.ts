import { resolveIn, type SectionContext } from "./context.js";
import type { Field } from "./field.js";

/** README and logo `pipeline describe` publishes; paths are relative to the spec's directory. */
export interface CatalogSpec {
  /** As written; default `CATALOG.md`. */
  readme: string;
  /** The README's absolute path when the file exists (absent: unset and no CATALOG.md, describe skips). */
  readme_file?: string;
  /** As written, or the probed `logo.svg` / `logo.png` (svg wins); absent when unset and neither exists. */
  logo?: string;
  /** The logo's absolute path when there is one. */
  logo_file?: string;
}

export const DEFAULT_README = "CATALOG.md";
export const PROBED_LOGOS = ["logo.svg", "logo.png"] as const;

/** What the catalog is when `catalog` is absent: the default README and the probed logo, if present. */
export function defaultCatalog(ctx: SectionContext): CatalogSpec {
  return assemble(existing(DEFAULT_README, ctx) ?? { path: DEFAULT_README }, probeLogo(ctx));
}

/** A `readme` or `logo` that is set must exist (exit 65); an unset one falls back to the defaults. */
export function readCatalog(field: Field, ctx: SectionContext): CatalogSpec | undefined {
  const map = field.map();
  if (!map) return undefined;
  const before = map.diagnostics.list.length;
  map.only(["readme", "logo"]);
  const readme = map.has("readme")
    ? readSetPath(map.get("readme"), ctx)
    : (existing(DEFAULT_README, ctx) ?? { path: DEFAULT_README });
  const logo = map.has("logo") ? readSetPath(map.get("logo"), ctx) : probeLogo(ctx);
  if (map.diagnostics.list.length > before || !readme) return undefined;
  return assemble(readme, logo);
}

interface CatalogPath {
  /** As written (or the default name). */
  path: string;
  /** Absolute, when the file exists. */
  file?: string;
}

function assemble(readme: CatalogPath, logo: CatalogPath | undefined): CatalogSpec {
  return {
    readme: readme.path,
    ...(readme.file ? { readme_file: readme.file } : {}),
    ...(logo ? { logo: logo.path, ...(logo.file ? { logo_file: logo.file } : {}) } : {}),
  };
}

function readSetPath(field: Field, ctx: SectionContext): CatalogPath | undefined {
  const text = field.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  return (
    existing(text, ctx) ??
    field.fail(
      `${text}: no such file (resolved against the spec's directory: ${resolveIn(ctx.specDir, text)})`,
    )
  );
}

function existing(path: string, ctx: SectionContext): CatalogPath | undefined {
  const file = resolveIn(ctx.specDir, path);
  return ctx.files.isFile(file) ? { path, file } : undefined;
}

function probeLogo(ctx: SectionContext): CatalogPath | undefined {
  for (const name of PROBED_LOGOS) {
    const logo = existing(name, ctx);
    if (logo) return logo;
  }
  return undefined;
}
