/** @jsxRuntime automatic */
/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import { catalogJsonRoute } from "../model/routes.js";
import { contentSecurityPolicy, type SiteChrome, scripts } from "./chrome.js";

export interface PageProps {
  chrome: SiteChrome;
  /** Page title; the site title is appended unless the page is the site's own front page. */
  title: string;
  /** Site route of the page, for canonical links. */
  route: string;
  description?: string;
  /** Extra module scripts after the site script. */
  modules?: string[];
  children: ComponentChildren;
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

export function Page({ chrome, title, route, description, modules = [], children }: PageProps) {
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
        {chrome.favicon && <link rel="icon" href={chrome.favicon} />}
        <script src={scripts.theme} />
        {chrome.stylesheets.map((href) => (
          <link rel="stylesheet" href={href} key={href} />
        ))}
        <script type="module" src={scripts.site} />
        {modules.map((src) => (
          <script type="module" src={src} key={src} />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <header class="site-header">
          <a class="brand" href="/">
            {chrome.logoHref ? (
              <img class="brand-logo" src={chrome.logoHref} alt="" width={32} height={32} />
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
                    <a href={entry.link} aria-current={route === entry.link ? "page" : undefined}>
                      {entry.text}
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <div class="header-tools">
            <a class="palette-open" href="/all/" data-palette-open aria-keyshortcuts="Control+K Meta+K">
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
                  <a href={entry.link}>{entry.text}</a>
                </li>
              ))}
              <li>
                <a href={catalogJsonRoute} type="application/json">
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
