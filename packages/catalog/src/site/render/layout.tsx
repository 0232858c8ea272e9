/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import { catalogJsonRoute, relativeLinks, type SiteLink } from "../model/routes.js";
import { contentSecurityPolicy, type SiteChrome, scripts } from "./chrome.js";
import { LinkContext, useLink } from "./links.js";

export interface PageProps {
  chrome: SiteChrome;
  /** Page title; the site title is appended unless the page is the site's own front page. */
  title: string;
  /** Site route of the page, for canonical links. */
  route: string;
  /** How the page names site paths; links relative to `route` unless given (the 404 page). */
  links?: SiteLink;
  description?: string;
  /** Extra scripts (site paths) after the site script. */
  extraScripts?: string[];
  children: ComponentChildren;
}

/** A config href (nav, footer, favicon): a site-root-relative path goes through the page's links,
 *  an absolute http(s) URL stays as it is. */
export function configHref(link: SiteLink, href: string): string {
  return href.startsWith("/") && !href.startsWith("//") ? link(href) : href;
}

function BrandMark() {
  return (
    <svg class="brand-mark" viewBox="0 0 32 32" width="32" height="32" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="11" height="11" rx="2" />
      <rect x="18" y="3" width="11" height="11" rx="2" />
      <rect x="3" y="18" width="11" height="11" rx="2" />
      <rect x="18" y="18" width="11" height="11" rx="2" />
    </svg>
  );
}

export function Page(props: PageProps) {
  return (
    <LinkContext.Provider value={props.links ?? relativeLinks(props.route)}>
      <PageBody {...props} />
    </LinkContext.Provider>
  );
}

function PageBody({ chrome, title, route, description, extraScripts = [], children }: PageProps) {
  const link = useLink();
  const fullTitle = title === chrome.title ? title : `${title} · ${chrome.title}`;
  const canonical = chrome.siteUrl === undefined ? undefined : `${chrome.siteUrl}${route}`;
  const metaDescription = description ?? chrome.description;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta http-equiv="Content-Security-Policy" content={contentSecurityPolicy} />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{fullTitle}</title>
        {metaDescription && <meta name="description" content={metaDescription} />}
        <meta property="og:site_name" content={chrome.title} />
        <meta property="og:title" content={title} />
        {canonical && <link rel="canonical" href={canonical} />}
        {canonical && <meta property="og:url" content={canonical} />}
        {chrome.favicon && <link rel="icon" href={configHref(link, chrome.favicon)} />}
        <script src={link(scripts.theme)} />
        {chrome.stylesheets.map((href) => (
          <link rel="stylesheet" href={link(href)} key={href} />
        ))}
        <script src={link(scripts.site)} defer />
        {extraScripts.map((src) => (
          <script src={link(src)} key={src} defer />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <a class="brand" href={link("/")}>
            {chrome.logoHref ? (
              <img class="brand-logo" src={link(chrome.logoHref)} alt="" width={32} height={32} />
            ) : (
              <BrandMark />
            )}
            <span class="wordmark">{chrome.wordmark}</span>
          </a>
          {chrome.nav.length > 0 && (
            <nav class="site-nav" aria-label="Main">
              <ul>
                {chrome.nav.map((entry) => (
                  <li key={entry.link}>
                    <a
                      href={configHref(link, entry.link)}
                      aria-current={route === entry.link ? "page" : undefined}
                    >
                      {entry.text}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <div class="header-tools">
            <a
              class="palette-open"
              href={link("/all/")}
              data-palette-open
              aria-keyshortcuts="Control+K Meta+K"
            >
              Search packages <kbd>Ctrl K</kbd>
            </a>
            <button type="button" class="theme-toggle" data-theme-toggle hidden aria-pressed="false">
              Dark theme
            </button>
          </div>
        </header>
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <footer class="site-footer">
          <nav aria-label="Footer">
            <ul>
              {chrome.footerLinks.map((entry) => (
                <li key={entry.link}>
                  <a href={configHref(link, entry.link)}>{entry.text}</a>
                </li>
              ))}
              <li>
                <a href={link(catalogJsonRoute)} type="application/json">
                  Catalog JSON
                </a>
              </li>
            </ul>
          </nav>
        </footer>
      </body>
    </html>
  );
}
