import { listForgeoneReleases } from "../sources/forgeone.js";
import { listPylock } from "../sources/pylock.js";
import { listPypi } from "../sources/pypi.js";
import type { SourceDeps, UpstreamVersion } from "../sources/types.js";
import { listUrlIndex } from "../sources/url-index.js";
import type { SourceSpec } from "../spec/source.js";

/**
 * Every version the spec's source lists, as the source lists them: forge releases, url-index
 * entries, the versions of a Simple Repository API index (`pypi`), or the one version a
 * committed lock records (`pylock`, read relative to `repoRoot`).
 */
export async function listUpstream(
  source: SourceSpec,
  deps: SourceDeps & { rateLimitMs: number; repoRoot: string },
): Promise<UpstreamVersion[]> {
  switch (source.type) {
    case "forgeone_release":
      return listForgeoneReleases(source, deps);
    case "url_index":
      return listUrlIndex(source, deps);
    case "pypi":
      return listPypi(source, deps);
    case "pylock":
      return listPylock(source, deps.repoRoot);
  }
}
