import type { SectionContext } from "./context.js";
import { closest } from "./diagnostics.js";
import type { Field, MapField } from "./field.js";
import { type ForgeoneReleaseSource, readForgeoneRelease } from "./source-forgeone.js";
import { type PylockSource, type PypiSource, readPylock, readPypi } from "./source-python.js";
import { readUrlIndex, type UrlIndexSource } from "./source-url-index.js";

export type { ForgeoneReleaseSource } from "./source-forgeone.js";
export type { PylockSource, PypiSource } from "./source-python.js";
export type { UrlIndexSource } from "./source-url-index.js";

/** `source`: where upstream versions come from; `type` selects one of four models. */
export type SourceSpec = ForgeoneReleaseSource | UrlIndexSource | PylockSource | PypiSource;
export type SourceType = SourceSpec["type"];

export const SOURCE_TYPES = [
  "forgeone_release",
  "url_index",
  "pylock",
  "pypi",
] as const satisfies readonly SourceType[];

/** The Python source types: they publish environment packages from `wheels`. */
export const PYTHON_SOURCE_TYPES: readonly SourceType[] = ["pylock", "pypi"];

/** The keys each type owns beside `type`; any other key is refused. */
const TYPE_KEYS: Record<SourceType, readonly string[]> = {
  forgeone_release: ["owner", "repo", "tag_pattern", "url_rewrite"],
  url_index: ["url", "versions", "generator", "url_rewrite"],
  pylock: ["path", "package"],
  pypi: ["package", "indexes"],
};

const readers: Record<SourceType, (map: MapField, ctx: SectionContext) => SourceSpec | undefined> = {
  forgeone_release: readForgeoneRelease,
  url_index: readUrlIndex,
  pylock: readPylock,
  pypi: readPypi,
};

export function readSource(field: Field, ctx: SectionContext): SourceSpec | undefined {
  const map = field.map();
  if (!map) return undefined;
  const type = map.require("type")?.oneOf(SOURCE_TYPES);
  checkKeys(map, type);
  return type === undefined ? undefined : readers[type](map, ctx);
}

/** Refuses every key the selected type does not own, saying which type owns it when one does. */
function checkKeys(map: MapField, type: SourceType | undefined): void {
  const own = type === undefined ? Object.values(TYPE_KEYS).flat() : TYPE_KEYS[type];
  for (const { key, keyField } of map.fields()) {
    if (key === "type" || own.includes(key)) continue;
    const owners = SOURCE_TYPES.filter((t) => TYPE_KEYS[t].includes(key));
    if (key === "url_rewrite") {
      keyField.fail(
        `url_rewrite is not supported for source type ${type}; it applies to forgeone_release and url_index (Python sources take their index bases from source.indexes)`,
      );
    } else if (owners.length > 0) {
      keyField.fail(`${key} belongs to source type ${owners.join(" or ")}, not ${type}`);
    } else {
      const near = closest(key, ["type", ...own]);
      keyField.fail(
        `unknown key ${JSON.stringify(key)}${near ? ` (did you mean ${JSON.stringify(near)}?)` : ""}`,
      );
    }
  }
}
