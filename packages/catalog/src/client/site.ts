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

async function openPalette(): Promise<void> {
  const palette = await import("./palette.js");
  palette.openPalette(document.activeElement);
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

setupThemeToggle();
setupPalette();
