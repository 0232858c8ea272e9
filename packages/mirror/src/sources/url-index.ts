import { ExitCode, PkgError } from "@pkg/common";
import { displayUrl } from "@pkg/net";
import { matchVersion } from "@pkg/package";
import type { UrlIndexSource } from "../spec/source-url-index.js";
import type { UrlIndexVersions } from "../spec/url-index-versions.js";
import { rewriteUrl } from "../spec/url-rewrite.js";
import { fetchOrFail } from "./fetch-or-fail.js";
import { describeCommand, runGenerator } from "./run-generator.js";
import type { SourceDeps, UpstreamVersion } from "./types.js";
import { parseUrlIndexDocument } from "./url-index-document.js";
import { effectiveUrlRewrite } from "./url-rewrite-env.js";

/** Largest url-index document read from a URL or a generator. */
export const MAX_URL_INDEX_BYTES = 32 * 1024 * 1024;

export type UrlIndexDeps = SourceDeps;

/**
 * The versions of a `url_index` source, from its `url`, inline `versions` or `generator`.
 *
 * Failures: an unreachable URL or a non-2xx answer is exit 69 naming the URL; a generator that
 * cannot start, exits non-zero or times out is exit 69 naming the command (the source is
 * unavailable, as for a URL); an empty output or a document that is not a valid url-index v1 is
 * exit 65 (bad data), with file:line:col positions inside the document. Digests are normalised
 * and checked while reading, before any download. Asset URLs are rewritten for download; the
 * document itself is always fetched from where the spec says.
 */
export async function listUrlIndex(source: UrlIndexSource, deps: UrlIndexDeps): Promise<UpstreamVersion[]> {
  // a bad override is refused before anything is fetched or run
  const rewrite = deps.urlRewrite ?? effectiveUrlRewrite(source.url_rewrite, deps.env);
  const versions = await readDocument(source, deps);
  return Object.entries(versions).map(([version, entry]) => {
    const parsed = matchVersion(version);
    const prerelease = entry.prerelease ?? (typeof parsed !== "string" && parsed.prerelease !== undefined);
    return {
      version,
      prerelease,
      assets: Object.entries(entry.assets).map(([name, asset]) => ({
        name,
        url: rewrite ? rewriteUrl(asset.url, rewrite) : asset.url,
        ...(asset.sha256 === undefined ? {} : { digest: asset.sha256 }),
      })),
    };
  });
}

async function readDocument(source: UrlIndexSource, deps: UrlIndexDeps): Promise<UrlIndexVersions> {
  if (source.versions) return source.versions;
  if (source.url !== undefined) {
    const response = await fetchOrFail(deps.http, source.url, "url index", MAX_URL_INDEX_BYTES);
    return parseUrlIndexDocument(response.body.toString("utf8"), displayUrl(source.url), deps.specDir);
  }
  if (source.generator) {
    const name = describeCommand(source.generator.command);
    const stdout = await runGenerator(source.generator, {
      specDir: deps.specDir,
      env: deps.env,
      maxBytes: MAX_URL_INDEX_BYTES,
    });
    const text = stdout.toString("utf8");
    if (text.trim() === "") {
      throw new PkgError(
        ExitCode.Data,
        `${name} wrote nothing; a url_index generator prints the url-index document`,
      );
    }
    return parseUrlIndexDocument(text, name, deps.specDir);
  }
  throw new PkgError(ExitCode.Data, "url_index source has none of url, versions, generator");
}
