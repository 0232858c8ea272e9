import { ExitCode, PkgError } from "@pkg/common";
import { listForgeoneReleases } from "../sources/forgeone.js";
import type { SourceDeps, UpstreamVersion } from "../sources/types.js";
import { listUrlIndex } from "../sources/url-index.js";
import type { SourceSpec } from "../spec/source.js";

/**
 * Every version the spec's source lists, as the source lists them. The Python sources publish
 * environment packages from a lock and are planned by their own commands: listing them here is
 * refused with exit 82 rather than answered wrongly.
 */
export async function listUpstream(
  source: SourceSpec,
  deps: SourceDeps & { rateLimitMs: number },
): Promise<UpstreamVersion[]> {
  switch (source.type) {
    case "forgeone_release":
      return listForgeoneReleases(source, deps);
    case "url_index":
      return listUrlIndex(source, deps);
    case "pylock":
    case "pypi":
      throw new PkgError(
        ExitCode.Unsupported,
        `source type ${source.type} is not supported by this command yet; it lists forgeone_release and url_index sources`,
      );
  }
}
