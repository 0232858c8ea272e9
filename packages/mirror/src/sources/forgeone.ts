import { ExitCode, PkgError, registerSecret } from "@pkg/common";
import type { HttpResponse } from "@pkg/net";
import { displayUrl, nextLink } from "@pkg/net";
import { compileRegex } from "../spec/regex.js";
import type { ForgeoneReleaseSource } from "../spec/source-forgeone.js";
import { type ForgeRelease, isForgeRelease, releaseVersion } from "./forgeone-release.js";
import { fetchListingPage } from "./listing-retry.js";
import type { SourceDeps, UpstreamVersion } from "./types.js";
import { effectiveUrlRewrite } from "./url-rewrite-env.js";

export const DEFAULT_FORGEONE_API_URL = "https://api.github.com";
/** A page of 100 releases with their notes stays far below this. */
const MAX_PAGE_BYTES = 32 * 1024 * 1024;

export interface ForgeoneListingDeps extends SourceDeps {
  /** `concurrency.rate_limit_ms`: the pause between two pages. */
  rateLimitMs: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The API's own `message`, or the start of a body that is not the API's JSON error. */
function apiMessage(body: Buffer): string {
  const text = body.toString("utf8");
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && "message" in parsed) {
      return String(parsed.message);
    }
  } catch {
    // not JSON: the text itself is the best description there is
  }
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function failure(source: ForgeoneReleaseSource, response: HttpResponse): PkgError {
  const message = apiMessage(response.body);
  return new PkgError(
    ExitCode.Unavailable,
    `listing releases of ${source.owner}/${source.repo}: the forge API answered ${response.status} for ${displayUrl(response.url)}${message ? `: ${message}` : ""}`,
  );
}

function releasesOf(source: ForgeoneReleaseSource, response: HttpResponse): ForgeRelease[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || !parsed.every(isForgeRelease)) {
    throw new PkgError(
      ExitCode.Unavailable,
      `listing releases of ${source.owner}/${source.repo}: ${displayUrl(response.url)} did not answer with a list of releases`,
    );
  }
  return parsed;
}

/**
 * Every non-draft release of `owner/repo` whose tag matches `tag_pattern`, newest first as the
 * forge lists them, paging along `Link: rel="next"`. `FORGEONE_TOKEN` is sent to the API's origin
 * only; pages failing transiently are retried per the spec, a 403 or 404 fails at once (exit 69).
 */
export async function listForgeoneReleases(
  source: ForgeoneReleaseSource,
  deps: ForgeoneListingDeps,
): Promise<UpstreamVersion[]> {
  const pattern = compileRegex(source.tag_pattern);
  if ("problem" in pattern) {
    throw new PkgError(ExitCode.Data, `source.tag_pattern: invalid regular expression: ${pattern.problem}`);
  }
  const apiBase = (deps.env.PKG_FORGEONE_API_URL || DEFAULT_FORGEONE_API_URL).replace(/\/+$/, "");
  const repoPath = `${encodeURIComponent(source.owner)}/${encodeURIComponent(source.repo)}`;
  let url: string | undefined = `${apiBase}/repos/${repoPath}/releases?per_page=100`;
  const apiOrigin = new URL(url).origin;
  const token = deps.env.FORGEONE_TOKEN || undefined;
  if (token) registerSecret(token);
  const retryDeps = {
    http: deps.http,
    log: deps.log,
    sleep: deps.sleep ?? realSleep,
    random: deps.random ?? Math.random,
  };

  // a bad override is refused before anything is fetched
  const rewrite = deps.urlRewrite ?? effectiveUrlRewrite(source.url_rewrite, deps.env);
  const versions: UpstreamVersion[] = [];
  const seen = new Set<string>();
  for (let page = 1; url !== undefined; page += 1) {
    if (page > 1 && deps.rateLimitMs > 0) await retryDeps.sleep(deps.rateLimitMs);
    deps.log.progress(`listing releases of ${source.owner}/${source.repo}: page ${page}`);
    const headers: Record<string, string> = { accept: "application/vnd.github+json" };
    if (token && new URL(url).origin === apiOrigin) headers.authorization = `Bearer ${token}`;
    const response = await fetchListingPage(
      { url, headers, auth: "none", maxBytes: MAX_PAGE_BYTES },
      retryDeps,
    );
    if (response.status < 200 || response.status > 299) throw failure(source, response);
    for (const release of releasesOf(source, response)) {
      const version = releaseVersion(release, pattern, rewrite);
      if (!version) continue;
      if (seen.has(version.version)) {
        deps.log.warn(`release ${release.tag_name}: version ${version.version} was listed already; skipped`);
        continue;
      }
      seen.add(version.version);
      versions.push(version);
    }
    url = nextLink(response.headers.link, response.url);
  }
  deps.log.progress(`listing releases of ${source.owner}/${source.repo}: ${versions.length} versions`);
  return versions;
}
