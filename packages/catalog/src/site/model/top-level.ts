import { assetsDir, TopLevelClaims } from "./routes.js";
import type { SiteModel } from "./types.js";

/** The response-headers file at the site root (read by Netlify and Cloudflare Pages). */
export const headersFileName = "_headers";

export interface TopLevelInputs {
  docs: boolean;
  sitemap: boolean;
  /** File name the brand logo is copied to at the site root. */
  brandLogo?: string;
  /** Top-level entries of the public directory. */
  publicNames: string[];
}

/**
 * Fails with one line when two parts of the site claim the same top-level name: a namespace called
 * `index`, `docs` or `assets`, an index label equal to a root namespace, a public file shadowing a page
 * or the `_headers` file (merging a user's headers into the catalog's would weaken or garble them).
 */
export function checkTopLevelRoutes(model: SiteModel, inputs: TopLevelInputs): void {
  const claims = new TopLevelClaims();
  const builtIn = "the catalog itself";
  for (const name of ["index.html", "404.html", "catalog.json", assetsDir, "all", "index"])
    claims.claim(name, builtIn);
  claims.claim(headersFileName, `the ${headersFileName} file`);
  if (inputs.sitemap) claims.claim("sitemap.xml", builtIn);
  if (inputs.docs) claims.claim("docs", "the docs mount");
  if (inputs.brandLogo !== undefined) claims.claim(inputs.brandLogo, "brand.logo");
  for (const name of inputs.publicNames) claims.claim(name, `publicDir entry ${name}`);
  for (const index of model.indexes) {
    if (index.root) {
      const owner = `the root index ${index.label}`;
      for (const name of ["config.json", "c", "p"]) claims.claim(name, owner);
      for (const pkg of index.packages) claims.claim(pkg.path.split("/")[0] ?? pkg.path, owner);
    } else {
      claims.claim(index.label, `the index ${index.label}`);
    }
  }
}
