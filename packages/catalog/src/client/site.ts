import { setupCopyButtons } from "./copy-button.js";
import { setupKeyboardHint } from "./keyboard-hint.js";
import { setupKeywordFold } from "./keyword-fold.js";
import { loadAsset, siteRoot } from "./site-root.js";

const root = document.documentElement;

function isDark(): boolean {
  const chosen = root.dataset.theme;
  return chosen ? chosen === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
}

function setupThemeToggle(): void {
  const button = document.querySelector<HTMLButtonElement>("[data-theme-toggle]");
  if (!button) return;
  const sync = () => button.setAttribute("aria-pressed", String(isDark()));
  button.hidden = false;
  sync();
  button.addEventListener("click", () => {
    const theme = isDark() ? "light" : "dark";
    root.dataset.theme = theme;
    try {
      localStorage.setItem("pkg-theme", theme);
    } catch {
      // not remembered without storage; the choice still applies to this page
    }
    sync();
  });
}

/** The palette's script, loaded on first use, sets this (src/client/palette.ts). */
declare global {
  var pkgOpenPalette: ((returnTo: Element | null) => void) | undefined;
}

/** Opens the palette, loading its script first; when that fails, goes where the trigger points
 *  (the catalog view's own search). */
async function openPalette(): Promise<void> {
  const returnTo = document.activeElement;
  try {
    await loadAsset("palette.js");
  } catch {
    const fallback = document.querySelector<HTMLAnchorElement>("a[data-palette-open]");
    if (fallback) location.href = fallback.href;
    return;
  }
  globalThis.pkgOpenPalette?.(returnTo);
}

function setupPalette(): void {
  for (const trigger of document.querySelectorAll<HTMLElement>("[data-palette-open]")) {
    trigger.setAttribute("role", "button");
    trigger.setAttribute("aria-haspopup", "dialog");
    trigger.addEventListener("click", (event) => {
      event.preventDefault();
      void openPalette();
    });
  }
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
      event.preventDefault();
      void openPalette();
    }
  });
}

/** Opened from disk there is no server to answer a directory with its `index.html`: the site's
 *  directory links name it themselves. */
function linkIndexFiles(): void {
  if (location.protocol !== "file:") return;
  const root = siteRoot().href;
  for (const link of document.querySelectorAll<HTMLAnchorElement>("a[href]")) {
    if (link.protocol === "file:" && link.href.startsWith(root) && link.pathname.endsWith("/"))
      link.pathname = `${link.pathname}index.html`;
  }
}

linkIndexFiles();
setupThemeToggle();
setupPalette();
setupKeyboardHint();
setupCopyButtons();
setupKeywordFold();
