import { startHttpServer, type TestServer } from "@pkg/testkit";

export interface ReleaseAsset {
  name: string;
  url: string;
  /** `sha256:<hex>` as the forge declares it. */
  digest?: string;
}

export interface ForgeRelease {
  tag_name: string;
  draft: boolean;
  prerelease: boolean;
  assets: Array<{ name: string; browser_download_url: string; digest: string | null }>;
}

export function forgeRelease(
  tag: string,
  assets: readonly ReleaseAsset[],
  flags: { draft?: boolean; prerelease?: boolean } = {},
): ForgeRelease {
  return {
    tag_name: tag,
    draft: flags.draft ?? false,
    prerelease: flags.prerelease ?? false,
    assets: assets.map((a) => ({ name: a.name, browser_download_url: a.url, digest: a.digest ?? null })),
  };
}

export interface ForgeOptions {
  /** `owner/repo`. */
  repo: string;
  /** Newest first, as the forge lists them; read at each request, so a test may change it. */
  releases: ForgeRelease[];
  /** Releases per page (the listing pages through `Link: rel="next"`). */
  perPage?: number;
  /** Files served under `/files/<name>`: the release assets. */
  files?: Map<string, Buffer>;
  /** Called before a file is answered; the answer waits for it (a test holds a download open). */
  beforeFile?: (name: string) => Promise<void>;
}

/**
 * A loopback forge: the releases API of one repository (point `PKG_FORGEONE_API_URL` at `url`)
 * and, under `/files/`, the assets its releases link to.
 */
export async function startForge(options: ForgeOptions): Promise<TestServer> {
  const releasesPath = `/repos/${options.repo}/releases`;
  const perPage = options.perPage ?? 100;
  const server: TestServer = await startHttpServer(async (req, res) => {
    const url = new URL(req.url ?? "/", server.url);
    const name = url.pathname.startsWith("/files/")
      ? decodeURIComponent(url.pathname.slice("/files/".length))
      : undefined;
    const file = name === undefined ? undefined : options.files?.get(name);
    if (name !== undefined && file) {
      await options.beforeFile?.(name);
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.length });
      return res.end(file);
    }
    if (url.pathname !== releasesPath) return res.writeHead(404).end('{"message":"Not Found"}');
    const page = Number(url.searchParams.get("page") ?? "1");
    const last = Math.ceil(options.releases.length / perPage);
    const link =
      page < last ? `<${server.url}${releasesPath}?per_page=100&page=${page + 1}>; rel="next"` : "";
    res.writeHead(200, { "content-type": "application/json", ...(link ? { link } : {}) });
    res.end(JSON.stringify(options.releases.slice((page - 1) * perPage, page * perPage)));
  });
  return server;
}
