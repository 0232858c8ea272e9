import { join } from "node:path";
import { serveDirectory, type TestServer, tempDir } from "@pkg/testkit";
import {
  buildWithCli,
  type CatalogProjectOptions,
  ocxIndexFixture,
  writeCatalogProject,
} from "./catalog-project.js";

/** The strict policy the site must work under, sent as a response header by the test server. */
export const strictCsp =
  "default-src 'self'; img-src 'self' https: data:; script-src 'self'; style-src 'self'";

/** A docs page for the docs mount: headings, a code block, a list, a link back to the catalog. */
export const docsIndex = `# Using this catalog

Every package here installs with one command:

\`\`\`sh
pkg exec ocx.sh/miniserve/miniserve
\`\`\`

## Finding packages

- Press **Ctrl K** anywhere to search every index.
- Filter by OS, keyword or status on the [catalog](/).
`;

export interface BuiltSite {
  /** The build output directory. */
  out: string;
  /** Build stderr (warnings). */
  stderr: string;
  /** Serving `out`. */
  server: TestServer;
  url(path: string): string;
  close(): Promise<void>;
}

/** A site icon, so that Chromium does not ask for `/favicon.ico` (a 404 in the console). */
const favicon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16"/></svg>\n';

/**
 * Builds a project with the CLI into `dir` (its output in `dir/site`) and returns the output
 * directory and the build's stderr; a failed build throws its stderr. The project has a favicon
 * from its public directory.
 */
export async function buildSite(
  dir: string,
  options: CatalogProjectOptions,
): Promise<{ out: string; stderr: string }> {
  const config = await writeCatalogProject(join(dir, "project"), {
    ...options,
    publicFiles: { "favicon.svg": favicon, ...options.publicFiles },
    config: { favicon: "/favicon.svg", ...options.config },
  });
  const out = join(dir, "site");
  const built = await buildWithCli(config, out);
  if (built.code !== 0) throw new Error(`pkg-catalog build exited ${built.code}: ${built.stderr}`);
  return { out, stderr: built.stderr };
}

/** Builds a project as `buildSite` does into a temp dir and serves it, by default with the strict
 *  CSP header. */
export async function buildAndServe(
  options: CatalogProjectOptions & { headers?: Record<string, string> },
): Promise<BuiltSite> {
  const dir = await tempDir("catalog-site-");
  try {
    const { out, stderr } = await buildSite(dir.path, options);
    const headers = options.headers ?? { "content-security-policy": strictCsp };
    const server = await serveDirectory(out, { headers });
    return {
      out,
      stderr,
      server,
      url: (path) => `${server.url}${path}`,
      close: async () => {
        await server.stop();
        await dir.remove();
      },
    };
  } catch (error) {
    await dir.remove();
    throw error;
  }
}

/** The fixture index with `docsIndex` mounted as the docs: every kind of page the site has. */
export const buildFixtureSiteWithDocs = () =>
  buildAndServe({ index: ocxIndexFixture, docs: { "index.md": docsIndex } });
