import { availableParallelism } from "node:os";
import type { PackageSummary, PackageView } from "../site/model/types.js";
import type { SiteChrome } from "../site/render/chrome.js";
import { sha256Hex } from "./memo.js";
import { createPageRenderer, type PageRenderer } from "./page-pool.js";
import { SiteWriter } from "./site-writer.js";

/** One package page to render: its package, and where its README is read from during the build. */
export interface PageSource {
  pkg: PackageSummary;
  /** The package's whole view (a reused package's is parsed from the memo only when its page is
   *  rendered). */
  view: () => PackageView;
  /** sha256 of the view's JSON, when known (a reused package's, from the memo). */
  viewHash?: string;
  /** A page of a package reused from the previous build: its path was checked then. */
  known?: boolean;
  /** The README file to read (the mirrored copy), and its index path (its digest is in the name). */
  readme?: { locate: () => string; path: string };
}

/** What the package pages of a build did: rendered, or kept from the previous output (same key). */
export interface PageCounts {
  rendered: number;
  reused: number;
}

/** The key of each view's page, by the inputs it was made of. */
const pageKeys = new WeakMap<PackageSummary, { inputs: string; key: string }>();

/** Pages handed to the workers at once (several each, so none waits for the next while the main
 *  thread reads). */
const inFlightPerWorker = 16;

/** Page workers: one per core (the main thread reads and writes meanwhile, mostly in the kernel). */
export function pageWorkerCount(): number {
  return Math.max(1, Math.min(availableParallelism(), 8));
}

/** The hashes of the views this build holds (made when viewed, or kept in the memo), by the view or
 *  the summary the build holds of it. */
const viewHashes = new WeakMap<PackageSummary, string>();

/** The hash of a package view, part of its page's key (and of the catalog pages listing it). */
export function viewHash(view: PackageView): string {
  return sha256Hex(JSON.stringify(view));
}

/** Records the hash of a package's view (views are not changed once made). */
export function rememberViewHash(pkg: PackageSummary, hash: string): void {
  viewHashes.set(pkg, hash);
}

/** The hash of the package's view as recorded. */
export function knownViewHash(pkg: PackageSummary): string {
  const hash = viewHashes.get(pkg);
  if (hash === undefined) throw new Error(`internal: no view hash recorded for ${pkg.name}`);
  return hash;
}

/** Where the page workers come from: a pool of this build's own, or one kept between builds. */
export interface PagePoolSource {
  get(chrome: SiteChrome): PageRenderer;
  /** Whether `close` stops the pool (false when it is kept for the next build). */
  owned: boolean;
}

/** Pages a build renders in its own thread before it starts the workers. */
const inlinePages = 4;

export function ownPool(workers = pageWorkerCount()): PagePoolSource {
  return { get: (chrome) => createPageRenderer(chrome, workers, inlinePages), owned: true };
}

/**
 * The package pages of a build, rendered by a pool of workers as they are added (while the sources
 * are still being read). Each page has a key hashing everything its bytes depend on (the renderer,
 * the chrome, its view, its README's digest and its successor's route): a page the previous output
 * has with the same key is kept, not rendered. The workers start with the first page to render.
 */
export class PackagePages {
  readonly counts: PageCounts = { rendered: 0, reused: 0 };
  /** Told, as pages are added and finish, how many are done (rendered or reused) of those added. */
  onProgress: ((done: number, added: number) => void) | undefined;
  private added = 0;
  private readonly chromeHash: string;
  private readonly queue: { path: string; key: string; page: PageSource; successorRoute?: string }[] = [];
  private renderer: PageRenderer | undefined;
  private running = 0;
  private failure: unknown;
  private idle: (() => void) | undefined;

  constructor(
    private readonly writer: SiteWriter,
    private readonly chrome: SiteChrome,
    private readonly rendererHash: string,
    private readonly pool: PagePoolSource = ownPool(),
    private readonly inFlight = pageWorkerCount() * inFlightPerWorker,
  ) {
    this.chromeHash = sha256Hex(JSON.stringify(chrome));
  }

  /**
   * Claims the page's path and renders it unless the previous output has it with the same key. A
   * page of a package reused from the previous build (`known`) was checked then: its path is only
   * registered.
   */
  add(page: PageSource, successorRoute: string | undefined, known = false): void {
    const { pkg } = page;
    const route = SiteWriter.pagePath(pkg.route);
    const owner = `the package ${pkg.name}`;
    const path = known ? this.writer.claimKnown(route, owner) : this.writer.claim(route, owner);
    const hash = page.viewHash ?? viewHash(page.view());
    rememberViewHash(pkg, hash);
    const inputs = [
      this.rendererHash,
      this.chromeHash,
      hash,
      page.readme?.path ?? "",
      successorRoute ?? "",
    ].join("\0");
    // a view kept between builds (dev) keeps the key of its page too
    let cached = pageKeys.get(pkg);
    if (cached?.inputs !== inputs) {
      cached = { inputs, key: sha256Hex(inputs) };
      pageKeys.set(pkg, cached);
    }
    const { key } = cached;
    this.added++;
    if (this.writer.keepPage(path, key)) {
      this.counts.reused++;
      this.progressed();
      return;
    }
    this.queue.push({ path, key, page, ...(successorRoute === undefined ? {} : { successorRoute }) });
    this.pump();
  }

  private progressed(): void {
    this.onProgress?.(this.counts.rendered + this.counts.reused, this.added);
  }

  private pump(): void {
    while (this.failure === undefined && this.running < this.inFlight) {
      const job = this.queue.shift();
      if (job === undefined) break;
      this.renderer ??= this.pool.get(this.chrome);
      this.running++;
      const { path, key, page, successorRoute } = job;
      this.renderer
        .run({
          file: this.writer.pageTarget(path),
          pkg: page.view(),
          ...(page.readme === undefined ? {} : { readmeFile: page.readme.locate() }),
          ...(successorRoute === undefined ? {} : { successorRoute }),
        })
        .then(
          (ident) => {
            this.writer.written(path, key, ident);
            this.counts.rendered++;
            this.progressed();
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

  /** Stops the workers unless the pool is kept for the next build (pages still running are
   *  abandoned). */
  async close(): Promise<void> {
    this.queue.length = 0;
    const renderer = this.renderer;
    this.renderer = undefined;
    if (this.pool.owned) await renderer?.close();
  }
}
