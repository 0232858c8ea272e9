import type { Logger } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { UrlRewrite } from "../spec/url-rewrite.js";

/** One downloadable file of an upstream release. */
export interface UpstreamAsset {
  name: string;
  /** Where to download it: after `url_rewrite` (discovery itself never moves). */
  url: string;
  /** The digest the upstream declares (`sha256:<hex>`), for `verify`; absent when it declares none. */
  digest?: string;
}

/** One upstream version, as a source lists it. */
export interface UpstreamVersion {
  /** The version text (tag_pattern's `version` group, with `-<prerelease>` appended when present). */
  version: string;
  prerelease: boolean;
  assets: UpstreamAsset[];
  /** The forge tag the version came from (forgeone_release only). */
  tag?: string;
}

/** What a source needs from the run. */
export interface SourceDeps {
  http: HttpClient;
  /** The spec's directory: generator working directories resolve here. */
  specDir: string;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /**
   * The rewrite of download URLs in force; when absent, the source's `url_rewrite` as replaced by
   * `PKG_MIRROR_URL_REWRITE` (`effectiveUrlRewrite`).
   */
  urlRewrite?: UrlRewrite;
}
