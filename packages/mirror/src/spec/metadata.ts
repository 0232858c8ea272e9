import type { SectionContext } from "./context.js";
import { resolveIn } from "./context.js";
import type { Field } from "./field.js";
import { readPlatformMap } from "./platform-key.js";

/**
 * `metadata`: paths of package metadata JSON files, as written, relative to the spec's directory.
 * `platforms` (canonical platform key to path) overrides `default` for that platform.
 */
export interface MetadataPaths {
  default: string;
  platforms: Record<string, string>;
}

export function readMetadataPaths(field: Field, ctx: SectionContext): MetadataPaths | undefined {
  const map = field.map();
  if (!map) return undefined;
  map.only(["default", "platforms"]);
  const defaultField = map.require("default");
  const path = defaultField && readMetadataPath(defaultField, ctx);
  const platformsField = map.get("platforms");
  const platforms = platformsField.present
    ? readPlatformMap(platformsField, (value) => readMetadataPath(value, ctx))
    : {};
  return path !== undefined && platforms !== undefined ? { default: path, platforms } : undefined;
}

/** Every file a metadata block can select, each with the field that names it. */
export function metadataFiles(paths: MetadataPaths): Array<{ path: string; at: string[] }> {
  return [
    { path: paths.default, at: ["default"] },
    ...Object.entries(paths.platforms).map(([key, path]) => ({ path, at: ["platforms", key] })),
  ];
}

function readMetadataPath(field: Field, ctx: SectionContext): string | undefined {
  const path = field.string({ nonEmpty: true });
  if (path === undefined) return undefined;
  if (!ctx.files.isFile(resolveIn(ctx.specDir, path))) {
    return field.fail(
      `metadata file ${JSON.stringify(path)} not found (paths resolve against the spec's directory ${ctx.specDir})`,
    );
  }
  return path;
}
