import { mkdir, realpath, rm } from "node:fs/promises";
import { join } from "node:path";

/** Builds the site into `outDir`; must leave nothing usable there when it throws. */
export type BuildSite = (outDir: string) => Promise<void>;

export interface RebuildHooks {
  built(milliseconds: number): void;
  failed(error: unknown): void;
}

/**
 * Builds into a fresh directory under `workDir` each time and switches `current` to it only when
 * the build succeeded, so a failed build leaves the last good site served and no request ever sees
 * a half-written one. Builds never overlap: a request during a build queues exactly one more.
 */
export class Rebuilder {
  readonly #workDir: string;
  readonly #build: BuildSite;
  readonly #hooks: RebuildHooks;
  #current: string | undefined;
  #generation = 0;
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

  /** Starts a build, or queues one after the running build; resolves with the outcome of the last. */
  rebuild(): Promise<boolean> {
    if (this.#running !== undefined) {
      this.#again = true;
      return this.#running;
    }
    this.#running = this.#loop().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  /** Waits for a running build to end. */
  async settle(): Promise<void> {
    await this.#running;
  }

  async #loop(): Promise<boolean> {
    let ok: boolean;
    do {
      this.#again = false;
      ok = await this.#once();
    } while (this.#again);
    return ok;
  }

  async #once(): Promise<boolean> {
    this.#generation += 1;
    const outDir = join(this.#workDir, `site-${this.#generation}`);
    const started = performance.now();
    try {
      await mkdir(this.#workDir, { recursive: true });
      await this.#build(outDir);
      const root = await realpath(outDir);
      const previous = this.#current;
      this.#current = root;
      if (previous !== undefined) await rm(previous, { recursive: true, force: true });
      this.#hooks.built(Math.round(performance.now() - started));
      return true;
    } catch (error) {
      await rm(outDir, { recursive: true, force: true });
      this.#hooks.failed(error);
      return false;
    }
  }
}
