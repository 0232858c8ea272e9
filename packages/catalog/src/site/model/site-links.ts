// No imports: the browser bundle uses these too (src/client/site-root.ts).

/**
 * How a page names another site path (`/`, `/all/`, `/assets/site.css`, `/a/b/?kw=x`): every
 * internal URL goes through one of these, so a built site works served at `/`, under any base path,
 * and opened from disk.
 */
export type SiteLink = (sitePath: string) => string;

/** Links relative to the page at `fromRoute` (a directory route such as `/a/b/`): `../../all/`. */
export function relativeLinks(fromRoute: string): SiteLink {
  const depth = fromRoute.split("/").length - 2;
  const up = depth <= 0 ? "" : "../".repeat(depth);
  return (sitePath) => {
    const target = sitePath.replace(/^\/+/, "");
    return `${up}${target}` || "./";
  };
}

/** Links under a fixed base path (`/catalog/`), for pages served at any depth (the 404 page). */
export function basedLinks(basePath: string): SiteLink {
  const base = basePath.endsWith("/") ? basePath : `${basePath}/`;
  return (sitePath) => `${base}${sitePath.replace(/^\/+/, "")}`;
}
