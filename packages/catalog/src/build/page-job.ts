import { closeSync, fstatSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { ExitCode, PkgError } from "@pkg/common";
import { README_MAX_BYTES } from "@pkg/index/read";
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
  /** The mirrored README file (verified UTF-8) to read the Markdown from: read here, not sent. */
  readmeFile?: string;
  successorRoute?: string;
}

/** The written page's inode, size and mtimeMs (for the build memo). */
export type PageIdent = [number, number, number];

export type PageResult = { id: number; ident: PageIdent } | { id: number; error: string; exitCode: number };

/** Renders the README and the page, and writes the page (synchronously: a worker has nothing else
 *  to do meanwhile, and one blocking call beats a trip through the thread pool). */
export function runPageJob(chrome: SiteChrome, job: PageJob): PageIdent {
  // the README may show the package's logo, named as the page names it
  const logoHref = job.pkg.logoHref && relativeLinks(job.pkg.route)(job.pkg.logoHref);
  const readme = job.readmeFile === undefined ? undefined : readText(job.readmeFile);
  const readmeHtml = readme === undefined ? undefined : renderReadme(readme, logoHref);
  const html = packageDocument(chrome, job.pkg, readmeHtml, job.successorRoute);
  try {
    const fd = openSync(job.file, "wx");
    try {
      // the string is written as it is: a Buffer of each page would be garbage outside the heap,
      // which a worker collects only when a lot of it piled up
      const bytes = Buffer.byteLength(html);
      const done = writeSync(fd, html);
      if (done < bytes) {
        const rest = Buffer.from(html).subarray(done);
        for (let at = 0; at < rest.byteLength; ) at += writeSync(fd, rest, at, rest.byteLength - at);
      }
      const stats = fstatSync(fd);
      return [stats.ino, stats.size, stats.mtimeMs];
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new PkgError(ExitCode.IoError, `cannot write ${job.file}: ${code}`);
  }
}

/** One buffer per thread for the READMEs (verified to be at most README_MAX_BYTES when read). */
let readmeBuffer: Buffer | undefined;

function readText(file: string): string {
  try {
    readmeBuffer ??= Buffer.allocUnsafeSlow(README_MAX_BYTES + 1);
    const fd = openSync(file, "r");
    let length: number;
    try {
      length = readSync(fd, readmeBuffer, 0, readmeBuffer.byteLength, 0);
    } finally {
      closeSync(fd);
    }
    return length < readmeBuffer.byteLength
      ? readmeBuffer.toString("utf8", 0, length)
      : readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new PkgError(ExitCode.IoError, `cannot read ${file}: ${code}`);
  }
}
