import { renderMarkdown } from "./markdown.js";
import { readmePolicy } from "./sanitize.js";

/** README Markdown to safe HTML: images only https or the package's own logo, headings demoted. */
export function renderReadme(source: string, logoHref: string | undefined): string {
  return renderMarkdown(source, readmePolicy(logoHref));
}
