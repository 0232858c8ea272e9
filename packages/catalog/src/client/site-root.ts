import { relativeLinks, type SiteLink } from "../site/model/site-links.js";

/**
 * The site's root URL, found from the address of the site's own scripts (`<root>/assets/*.js`), so
 * it holds when the site is served at `/`, under a base path, or opened from disk.
 */
export function siteRoot(): URL {
  for (const script of document.querySelectorAll<HTMLScriptElement>("script[src]")) {
    const src = new URL(script.src, location.href);
    const at = src.pathname.lastIndexOf("/assets/");
    if (at !== -1) return new URL(src.pathname.slice(0, at + 1), src);
  }
  return new URL("/", location.href);
}

/** The current page's site route (`/all/page/2/`), from its address below the site root. */
export function currentRoute(root: URL = siteRoot()): string {
  const path = location.pathname.replace(/index\.html$/, "");
  return path.startsWith(root.pathname) ? `/${path.slice(root.pathname.length)}` : "/";
}

/** Links from the current page, as the server renders them; from disk, a directory link names its
 *  `index.html`, since there is no server to do it. */
export function pageLinks(): SiteLink {
  const relative = relativeLinks(currentRoute());
  if (location.protocol !== "file:") return relative;
  return (sitePath) => {
    const href = relative(sitePath);
    return href.endsWith("/") ? `${href}index.html` : href;
  };
}

const loading = new Map<string, Promise<void>>();

/** Runs a script of the site's assets directory once (a classic script: it also runs from disk,
 *  where the browser refuses modules and fetch). */
export function loadAsset(name: string): Promise<void> {
  let promise = loading.get(name);
  if (promise === undefined) {
    promise = new Promise<void>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL(`assets/${name}`, siteRoot()).href;
      script.async = true;
      script.addEventListener("load", () => resolve());
      script.addEventListener("error", () => {
        loading.delete(name);
        script.remove();
        reject(new Error(`cannot load ${name}`));
      });
      document.head.append(script);
    });
    loading.set(name, promise);
  }
  return promise;
}
