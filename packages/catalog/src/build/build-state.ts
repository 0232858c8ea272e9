import type { BuildMemo } from "./memo.js";
import { type PagePoolSource, pageWorkerCount } from "./package-pages.js";
import { createPageRenderer, type PageRenderer } from "./page-pool.js";

/**
 * What one process keeps between its builds (`dev`): the memo of each output directory it built,
 * trusted as it is (nobody else writes there), so a rebuild reads and writes only what changed.
 */
export class BuildState {
  readonly memos = new Map<string, BuildMemo>();
  /** The output of the last build that succeeded: a build into another directory that has no memo
   *  yet links what it can from there. */
  last: string | undefined;
  #pool: { chrome: string; renderer: PageRenderer } | undefined;

  /** The page workers, kept from one build to the next (started anew when the chrome changes). */
  readonly pages: PagePoolSource = {
    owned: false,
    get: (chrome) => {
      const json = JSON.stringify(chrome);
      if (this.#pool?.chrome !== json) {
        void this.#pool?.renderer.close();
        this.#pool = { chrome: json, renderer: createPageRenderer(chrome, pageWorkerCount()) };
      }
      return this.#pool.renderer;
    },
  };

  /** Forgets the workers after a failed build (one may have died with it). */
  dropWorkers(): Promise<void> {
    const renderer = this.#pool?.renderer;
    this.#pool = undefined;
    return renderer?.close() ?? Promise.resolve();
  }

  /** Stops the workers. */
  close(): Promise<void> {
    return this.dropWorkers();
  }
}
