import type { BrowserContext, Page } from "playwright-core";

/**
 * Everything a page should never do, recorded for every page of a context: console errors, uncaught
 * exceptions, Content-Security-Policy violations (the DOM event and Chromium's console report) and
 * dialogs (alert, confirm, prompt; dismissed).
 */
export interface PageProblems {
  problems: string[];
  /** Empties the list and returns what it held, less the problems matching `expected`. */
  take(expected?: RegExp): string[];
}

/** Runs in every document before its own scripts: reports CSP violations through the console. */
function reportViolations(): void {
  document.addEventListener("securitypolicyviolation", (event) => {
    console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
  });
}

function watchPage(page: Page, problems: string[]): void {
  const where = () => page.url();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error on ${where()}: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error on ${where()}: ${error.message}`));
  page.on("dialog", (dialog) => {
    problems.push(`dialog on ${where()}: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
}

export async function watchContext(context: BrowserContext): Promise<PageProblems> {
  const problems: string[] = [];
  await context.addInitScript(reportViolations);
  context.on("page", (page) => watchPage(page, problems));
  for (const page of context.pages()) watchPage(page, problems);
  return {
    problems,
    take: (expected) => problems.splice(0, problems.length).filter((p) => !expected?.test(p)),
  };
}
