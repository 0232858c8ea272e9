import { availableParallelism } from "node:os";
import type { PackageView } from "../site/model/types.js";
import type { SiteChrome } from "../site/render/chrome.js";
import { sha256Hex } from "./memo.js";
import { createPageRenderer, type PageRenderer } from "./page-pool.js";
import { SiteWriter } from "./site-writer.js";

/** One package page to render: its view, and where its README is read from during the build. */
export interface PageSource {
  pkg: PackageView;
  /** The README file to read (the mirrored copy), and its index path (its digest is in the name). */
  readme?: { file: string; path: string };
}

/** What the package pages of a build did: rendered, or kept from the previous output (same key). */
export interface PageCounts {
  rendered: number;
  reused: number;
}

/** Pages handed to the workers at once (a few each, so none waits for the next). */
const inFlightPerWorker = 4;

/** Page workers: one per core (the main thread reads and writes meanwhile, mostly in the kernel). */
export function pageWorkerCount(): number {
  return Number(process.env.PKG_CATALOG_WORKERS) || Math.max(1, Math.min(availableParallelism(), 8));
}

/**
 * The package pages of a build, rendered by a pool of workers as they are added (while the sources
 * are still being read). Each page has a key hashing everything its bytes depend on (the renderer,
 * the chrome, its view, its README's digest and its successor's route): a page the previous output
 * has with the same key is kept, not rendered. The workers start with the first page to render.
 */
export class PackagePages {
  readonly counts: PageCounts = { rendered: 0, reused: 0 };
  private readonly chromeJson: string;
  private readonly queue: { path: string; key: string; page: PageSource; successorRoute?: string }[] = [];
  private renderer: PageRenderer | undefined;
  private running = 0;
  private failure: unknown;
  private idle: (() => void) | undefined;

  constructor(
    private readonly writer: SiteWriter,
    private readonly chrome: SiteChrome,
    private readonly rendererHash: string,
    private readonly workers = pageWorkerCount(),
  ) {
    this.chromeJson = JSON.stringify(chrome);
  }

  /** Claims the page's path and renders it unless the previous output has it with the same key. */
  add(page: PageSource, successorRoute: string | undefined): void {
    const { pkg } = page;
    const path = this.writer.claim(SiteWriter.pagePath(pkg.route), `the package ${pkg.name}`);
    const key = sha256Hex(
      JSON.stringify([
        this.rendererHash,
        this.chromeJson,
        pkg,
        page.readme?.path ?? null,
        successorRoute ?? null,
      ]),
    );
    if (this.writer.keepPage(path, key)) {
      this.counts.reused++;
      return;
    }
    this.queue.push({ path, key, page, ...(successorRoute === undefined ? {} : { successorRoute }) });
    this.pump();
  }

  private pump(): void {
    while (this.failure === undefined && this.running < this.workers * inFlightPerWorker) {
      const job = this.queue.shift();
      if (job === undefined) break;
      this.renderer ??= createPageRenderer(this.chrome, this.workers);
      this.running++;
      const { path, key, page, successorRoute } = job;
      this.renderer
        .run({
          file: this.writer.pageTarget(path),
          pkg: page.pkg,
          ...(page.readme === undefined ? {} : { readmeFile: page.readme.file }),
          ...(successorRoute === undefined ? {} : { successorRoute }),
        })
        .then(
          (ident) => {
            this.writer.written(path, key, ident);
            this.counts.rendered++;
          },
          (error: unknown) => {
            this.failure ??= error;
          },
        )
        .finally(() => {
          this.running--;
          this.pump();
          if (this.running === 0 && (this.queue.length === 0 || this.failure !== undefined)) this.idle?.();
        });
    }
  }

  /** Waits for every page added; rejects with the first failure. Stops the workers either way. */
  async finish(): Promise<PageCounts> {
    try {
      if (this.running > 0 || (this.queue.length > 0 && this.failure === undefined)) {
        await new Promise<void>((resolve) => {
          this.idle = resolve;
        });
      }
      if (this.failure !== undefined) throw this.failure;
      return this.counts;
    } finally {
      await this.close();
    }
  }

  /** Stops the workers (pages still running are abandoned). */
  async close(): Promise<void> {
    this.queue.length = 0;
    const renderer = this.renderer;
    this.renderer = undefined;
    await renderer?.close();
  }
}
