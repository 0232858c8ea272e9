import { createHash } from "node:crypto";

/**
 * The git object graph behind the loopback forges: blobs, flat trees (path → blob), commits with
 * parents. Object ids are SHA-1 like git's (blobs exactly git's); what the forges' REST shapes
 * expose of it (ancestry, merge bases, ahead/behind, a file's last commit, three-way merges) is
 * computed here.
 */
export interface CommitObject {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  /** Order of creation, newest highest (the walk order of "last commit for path"). */
  seq: number;
}

const sha1 = (data: string | Buffer) => createHash("sha1").update(data).digest("hex");

export class GitObjects {
  readonly blobs = new Map<string, Buffer>();
  readonly trees = new Map<string, Map<string, string>>();
  readonly commits = new Map<string, CommitObject>();
  #seq = 0;

  putBlob(content: Buffer): string {
    const sha = sha1(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]));
    this.blobs.set(sha, content);
    return sha;
  }

  putTree(entries: Map<string, string>): string {
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const sha = sha1(`tree\0${sorted.map(([path, blob]) => `${path}\0${blob}`).join("\n")}`);
    this.trees.set(sha, new Map(sorted));
    return sha;
  }

  /** A tree from the files, as paths to contents. */
  treeOf(files: Record<string, string | Buffer>): string {
    const entries = new Map<string, string>();
    for (const [path, content] of Object.entries(files))
      entries.set(path, this.putBlob(Buffer.from(content)));
    return this.putTree(entries);
  }

  putCommit(tree: string, parents: string[], message: string): string {
    this.#seq += 1;
    const sha = sha1(`commit\0${tree}\n${parents.join(",")}\n${this.#seq}\n${message}`);
    this.commits.set(sha, { sha, tree, parents, message, seq: this.#seq });
    return sha;
  }

  commit(sha: string): CommitObject | undefined {
    return this.commits.get(sha);
  }

  entries(commitSha: string): Map<string, string> {
    const commit = this.commits.get(commitSha);
    return new Map(commit ? this.trees.get(commit.tree) : undefined);
  }

  /** The blob id of a file at a commit, or undefined. */
  blobAt(commitSha: string, path: string): string | undefined {
    return this.entries(commitSha).get(path);
  }

  file(commitSha: string, path: string): Buffer | undefined {
    const blob = this.blobAt(commitSha, path);
    return blob === undefined ? undefined : this.blobs.get(blob);
  }

  ancestors(sha: string): Set<string> {
    const seen = new Set<string>();
    const todo = [sha];
    while (todo.length > 0) {
      const next = todo.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      todo.push(...(this.commits.get(next)?.parents ?? []));
    }
    return seen;
  }

  isAncestor(ancestor: string, of: string): boolean {
    return this.ancestors(of).has(ancestor);
  }

  /** The best common ancestor (a common ancestor no other common ancestor descends from). */
  mergeBase(a: string, b: string): string | undefined {
    const ofA = this.ancestors(a);
    const common = [...this.ancestors(b)].filter((sha) => ofA.has(sha));
    const best = common.filter((candidate) =>
      common.every((other) => other === candidate || !this.isAncestor(candidate, other)),
    );
    return best.sort((x, y) => (this.commits.get(y)?.seq ?? 0) - (this.commits.get(x)?.seq ?? 0))[0];
  }

  /** Commits reachable from `head` and not from `base`, and the other way round. */
  aheadBehind(base: string, head: string): { ahead: number; behind: number; aheadCommits: string[] } {
    const ofBase = this.ancestors(base);
    const ofHead = this.ancestors(head);
    const aheadCommits = [...ofHead].filter((sha) => !ofBase.has(sha));
    return {
      ahead: aheadCommits.length,
      behind: [...ofBase].filter((sha) => !ofHead.has(sha)).length,
      aheadCommits,
    };
  }

  /** The newest commit reachable from `from` that changed `path` (git log -1 -- path). */
  lastCommitFor(from: string, path: string): string | undefined {
    const candidates = [...this.ancestors(from)]
      .map((sha) => this.commits.get(sha) as CommitObject)
      .sort((x, y) => y.seq - x.seq);
    for (const commit of candidates) {
      const here = this.blobAt(commit.sha, path);
      const changed =
        commit.parents.length === 0
          ? here !== undefined
          : commit.parents.every((parent) => this.blobAt(parent, path) !== here);
      if (changed) return commit.sha;
    }
    return undefined;
  }

  /**
   * Merges `theirs` into `ours` over their merge base, path by path; a path both sides changed
   * differently is a conflict (what a forge reports as "cannot be merged").
   */
  threeWay(ours: string, theirs: string): { tree: string; conflicts: string[] } {
    const base = this.mergeBase(ours, theirs);
    const baseEntries = base === undefined ? new Map<string, string>() : this.entries(base);
    const ourEntries = this.entries(ours);
    const theirEntries = this.entries(theirs);
    const merged = new Map(ourEntries);
    const conflicts: string[] = [];
    for (const path of new Set([...ourEntries.keys(), ...theirEntries.keys(), ...baseEntries.keys()])) {
      const was = baseEntries.get(path);
      const mine = ourEntries.get(path);
      const their = theirEntries.get(path);
      if (their === was || their === mine) continue;
      if (mine === was) {
        if (their === undefined) merged.delete(path);
        else merged.set(path, their);
      } else conflicts.push(path);
    }
    return { tree: this.putTree(merged), conflicts };
  }
}
