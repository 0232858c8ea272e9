import { writeFileSync } from "node:fs";
import { ExitCode, PkgError } from "@pkg/common";
import { renderReadme } from "../site/markdown/render-readme.js";
import { relativeLinks } from "../site/model/routes.js";
import type { PackageView } from "../site/model/types.js";
import type { SiteChrome } from "../site/render/chrome.js";
import { packageDocument } from "../site/render/documents.js";

/** One package page to render and write; everything in it survives a structured clone. */
export interface PageJob {
  id: number;
  /** Absolute file path, already claimed (checked inside the site) by the SiteWriter. */
  file: string;
  pkg: PackageView;
  readme?: string;
  successorRoute?: string;
}

export type PageResult = { id: number } | { id: number; error: string; exitCode: number };

/** Renders the README and the page, and writes the page (synchronously: a worker has nothing else
 *  to do meanwhile, and one blocking call beats a trip through the thread pool). */
export function runPageJob(chrome: SiteChrome, job: PageJob): void {
  // the README may show the package's logo, named as the page names it
  const logoHref = job.pkg.logoHref && relativeLinks(job.pkg.route)(job.pkg.logoHref);
  const readmeHtml = job.readme === undefined ? undefined : renderReadme(job.readme, logoHref);
  const html = packageDocument(chrome, job.pkg, readmeHtml, job.successorRoute);
  try {
    writeFileSync(job.file, html, { flag: "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new PkgError(ExitCode.IoError, `cannot write ${job.file}: ${code}`);
  }
}
