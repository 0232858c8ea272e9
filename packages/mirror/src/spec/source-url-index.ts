import { resolveIn, type SectionContext } from "./context.js";
import type { MapField } from "./field.js";
import { type GeneratorSpec, readGenerator } from "./generator.js";
import { readHttpUrl } from "./http-url.js";
import { readUrlIndexVersions, type UrlIndexVersions } from "./url-index-versions.js";
import { readUrlRewrite, type UrlRewrite } from "./url-rewrite.js";

/**
 * `source.type: url_index`: versions from a url-index v1 document, given by exactly one of
 * `url` (fetched), `versions` (inline) or `generator` (a command's stdout).
 */
export interface UrlIndexSource {
  type: "url_index";
  url?: string;
  versions?: UrlIndexVersions;
  generator?: GeneratorSpec;
  url_rewrite?: UrlRewrite;
}

const documentKeys = ["url", "versions", "generator"] as const;

export function readUrlIndex(map: MapField, ctx: SectionContext): UrlIndexSource | undefined {
  const document = readDocument(map, ctx);
  const rewriteField = map.get("url_rewrite");
  const url_rewrite = rewriteField.present ? readUrlRewrite(rewriteField) : undefined;
  if (document === undefined || (rewriteField.present && url_rewrite === undefined)) return undefined;
  return { type: "url_index", ...document, ...(url_rewrite ? { url_rewrite } : {}) };
}

type DocumentSource =
  | Pick<UrlIndexSource, "url">
  | Pick<UrlIndexSource, "versions">
  | Pick<UrlIndexSource, "generator">;

function readDocument(map: MapField, ctx: SectionContext): DocumentSource | undefined {
  const which = map.exactlyOne(documentKeys);
  if (which === undefined) return undefined;
  const field = map.get(which);
  if (which === "url") {
    const url = readHttpUrl(field);
    return url === undefined ? undefined : { url };
  }
  if (which === "versions") {
    const versions = readUrlIndexVersions(field);
    return versions === undefined ? undefined : { versions };
  }
  const generator = readGenerator(field);
  if (generator?.working_directory === undefined) return generator === undefined ? undefined : { generator };
  // the command runs at every crawl: a directory that is not there fails now, not then
  if (!ctx.files.isDirectory(resolveIn(ctx.specDir, generator.working_directory))) {
    // a generator read without problems is a mapping
    return field
      .map()
      ?.get("working_directory")
      .fail(
        `working directory ${JSON.stringify(generator.working_directory)} not found (the path is relative to the spec's directory ${ctx.specDir})`,
      );
  }
  return { generator };
}
