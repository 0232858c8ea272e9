import { ExitCode, PkgError } from "@pkg/common";
import { displayUrl, type HttpResponse } from "@pkg/net";
import { normalizeName } from "../python/name.js";
import { IndexPageError, listedVersions, parseProjectPage, SIMPLE_ACCEPT } from "../python/simple-index.js";
import type { PypiSource } from "../spec/source-python.js";
import type { SourceDeps, UpstreamVersion } from "./types.js";

/** Largest project page read (the largest public projects list tens of thousands of files). */
export const MAX_PROJECT_PAGE_BYTES = 64 * 1024 * 1024;

/**
 * The versions of a `pypi` source: the project page of the first index (in the spec's order)
 * that has the project, never merged with a later index's (dependency-confusion safety). A 404
 * moves to the next index; 404 from every index is exit 65; any other failure (transport, a
 * non-2xx status, 401 included, a malformed page) is exit 69. Credentials are the client's
 * host-keyed ladder. A version is listed when it has a non-yanked file; its assets are those files.
 */
export async function listPypi(source: PypiSource, deps: SourceDeps): Promise<UpstreamVersion[]> {
  const project = source.package;
  if (project === undefined) throw new PkgError(ExitCode.Data, "pypi source: no package to resolve");
  const normalized = normalizeName(project);
  for (const index of source.indexes) {
    const pageUrl = `${index.url.endsWith("/") ? index.url : `${index.url}/`}${normalized}/`;
    const response = await fetchPage(deps, pageUrl);
    if (response === undefined) {
      deps.log.progress(`${displayUrl(pageUrl)}: 404, trying the next index`);
      continue;
    }
    let files: ReturnType<typeof parseProjectPage>;
    try {
      files = parseProjectPage(
        response.body.toString("utf8"),
        headerText(response.headers["content-type"]),
        response.url,
      );
    } catch (error) {
      if (!(error instanceof IndexPageError)) throw error;
      throw new PkgError(ExitCode.Unavailable, `index ${displayUrl(pageUrl)}: ${error.message}`);
    }
    return listedVersions(files, normalized).map((listed) => ({
      version: listed.version,
      prerelease: listed.prerelease,
      assets: listed.files.map((file) => ({
        name: file.filename,
        url: file.url,
        ...(file.hashes.sha256 === undefined ? {} : { digest: `sha256:${file.hashes.sha256}` }),
      })),
    }));
  }
  throw new PkgError(
    ExitCode.Data,
    `no index has the project ${normalized} (404 from ${source.indexes.map((i) => displayUrl(i.url)).join(", ")})`,
  );
}

/** The 2xx page, or undefined on 404; anything else is exit 69. */
async function fetchPage(deps: SourceDeps, url: string): Promise<HttpResponse | undefined> {
  let response: HttpResponse;
  try {
    response = await deps.http.fetch({
      url,
      headers: { accept: SIMPLE_ACCEPT },
      maxBytes: MAX_PROJECT_PAGE_BYTES,
    });
  } catch (error) {
    if (error instanceof PkgError && error.exitCode !== ExitCode.Unavailable) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new PkgError(ExitCode.Unavailable, `index ${displayUrl(url)} is unreachable: ${reason}`, {
      cause: error,
    });
  }
  if (response.status === 404) return undefined;
  if (response.status < 200 || response.status > 299) {
    throw new PkgError(ExitCode.Unavailable, `index ${displayUrl(url)} answered HTTP ${response.status}`);
  }
  return response;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
