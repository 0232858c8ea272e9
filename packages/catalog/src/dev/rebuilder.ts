import { mkdir, realpath } from "node:fs/promises";
import { join } from "node:path";

/** Builds the site into `outDir` (empty, or the site this process built there two builds ago); when
 *  it throws, `outDir` is as it was. Resolves with what it did, for the log ("read 1 package..."). */
export type BuildSite = (outDir: string) => Promise<string | undefined>;

export interface RebuildHooks {
  built(milliseconds: number, detail: string | undefined): void;
  failed(error: unknown): void;
}

/** The two directories under `workDir` that builds alternate between. */
const slotNames = ["site-a", "site-b"];

/**
 * Builds into the one of two directories under `workDir` that is not served, and switches
 * `current` to it only when the build succeeded, so a failed build leaves the last good site served
 * and no request ever sees a half-written one. The directory left behind is the next build's, which
 * then writes only what changed since it was built. Builds never overlap: a request during a build
 * queues exactly one more.
 */
export class Rebuilder {
  readonly #workDir: string;
  readonly #build: BuildSite;
  readonly #hooks: RebuildHooks;
  #current: string | undefined;
  #slot = 0;
  #running: Promise<boolean> | undefined;
  #again = false;

  constructor(workDir: string, build: BuildSite, hooks: RebuildHooks) {
    this.#workDir = workDir;
    this.#build = build;
    this.#hooks = hooks;
  }

  /** The real path of the last good build, once there is one. */
  get current(): string | undefined {
    return this.#current;
  }

  /** Starts a build, or queues one after the running build; resolves with the outcome of the last.
   *  A quiet build (bringing the other directory up to date) tells the hooks nothing. */
  rebuild(options: { quiet?: boolean } = {}): Promise<boolean> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#loop(options.quiet === true).finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Waits for a running build to end. */
  async settle(): Promise<void> {
    await this.#running;
  }

  async #loop(quiet: boolean): Promise<boolean> {
    let ok: boolean;
    let silent = quiet;
    do {
      this.#again = false;
      ok = await this.#once(silent);
      silent = false;
    } while (this.#again);
    return ok;
  }

  async #once(quiet: boolean): Promise<boolean> {
    // the first build goes to the first directory; each next one to the directory not served
    const slot = this.#current === undefined ? this.#slot : 1 - this.#slot;
    const outDir = join(this.#workDir, slotNames[slot] ?? "site");
    const started = performance.now();
    try {
      await mkdir(this.#workDir, { recursive: true });
      const detail = await this.#build(outDir);
      this.#current = await realpath(outDir);
      this.#slot = slot;
      if (!quiet) this.#hooks.built(Math.round(performance.now() - started), detail);
      return true;
    } catch (error) {
      if (!quiet) this.#hooks.failed(error);
      return false;
    }
  }
}
