import { type FSWatcher, statSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import type { WatchTargets } from "./watch-targets.js";

/** Directories whose changes are never inputs (version control, installed packages). */
const ignoredSegment = /(^|[/\\])(\.git|node_modules)([/\\]|$)/;

/**
 * Watches trees recursively and single files through their directory (editors often replace a file
 * by renaming a new one over it, which a watch on the file itself would miss). A tree is also
 * watched by name in its parent, so that replacing it is seen. `update` changes the set in place:
 * a path that does not exist (yet) is skipped, a directory replaced since is watched anew.
 */
export class InputWatcher {
  readonly #onChange: () => void;
  readonly #watchers = new Map<string, FSWatcher>();

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  update(targets: WatchTargets): void {
    const wanted = new Map<string, () => FSWatcher>();
    for (const tree of targets.trees) {
      const id = identity(tree);
      if (id !== undefined) wanted.set(`tree:${id}:${tree}`, () => this.#watchTree(tree));
    }
    const namesByDir = new Map<string, Set<string>>();
    for (const path of [...targets.files, ...targets.trees]) {
      const names = namesByDir.get(dirname(path)) ?? new Set<string>();
      names.add(basename(path));
      namesByDir.set(dirname(path), names);
    }
    for (const [dir, names] of namesByDir) {
      const id = identity(dir);
      const key = `names:${id}:${dir}:${[...names].sort().join("/")}`;
      if (id !== undefined) wanted.set(key, () => this.#watchNames(dir, names));
    }
    for (const [key, watcher] of this.#watchers) {
      if (wanted.has(key)) continue;
      watcher.close();
      this.#watchers.delete(key);
    }
    for (const [key, start] of wanted) {
      if (!this.#watchers.has(key)) this.#start(key, start);
    }
  }

  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }

  #start(key: string, start: () => FSWatcher): void {
    let watcher: FSWatcher;
    try {
      watcher = start();
    } catch (error) {
      // gone between the stat and the watch: the next update looks again
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return;
      throw error;
    }
    watcher.on("error", () => {
      watcher.close();
      if (this.#watchers.get(key) === watcher) this.#watchers.delete(key);
    });
    this.#watchers.set(key, watcher);
  }

  #watchTree(dir: string): FSWatcher {
    return watch(dir, { recursive: true }, (_event, name) => {
      if (name === null || !ignoredSegment.test(name)) this.#onChange();
    });
  }

  #watchNames(dir: string, names: ReadonlySet<string>): FSWatcher {
    return watch(dir, (_event, name) => {
      if (name === null || names.has(name)) this.#onChange();
    });
  }
}

/** Device and inode of a directory, or undefined when there is none at `path`. */
function identity(path: string): string | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? `${stats.dev}:${stats.ino}` : undefined;
  } catch {
    return undefined;
  }
}
