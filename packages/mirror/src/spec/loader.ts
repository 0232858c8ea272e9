import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ExitCode, isInside } from "@pkg/common";
import { diskFiles, resolveIn, type SectionContext, type SpecFiles } from "./context.js";
import { type SpecDiagnostic, SpecError } from "./diagnostics.js";
import { Diagnostics, Field, type MapField, type SpecSource } from "./field.js";
import {
  type MirrorSpec,
  readMirrorSpec,
  type SectionName,
  TOP_LEVEL_KEYS,
  type TopFields,
} from "./mirror-spec.js";
import { readSpecSource } from "./source-file.js";

export interface LoadedSpec {
  spec: MirrorSpec;
  /** The spec file and every parent it extends, child first. */
  chain: string[];
  specDir: string;
  repoRoot: string;
  warnings: SpecDiagnostic[];
}

export interface LoadOptions {
  /** Repository root; default the nearest ancestor of the spec holding `.git`, else the spec's directory. */
  repoRoot?: string;
  files?: SpecFiles;
}

/** Longest `extends` chain followed; a longer one is almost certainly a mistake. */
const MAX_EXTENDS_DEPTH = 16;

/**
 * Loads a mirror.yml: parses it and every parent it extends (shallow top-level merge, the child's
 * keys winning), then reads every section. Throws a SpecError carrying every problem found in file
 * and position order, a usage problem (64) anywhere deciding the exit code over data problems
 * (65); returns the model otherwise.
 */
export async function loadMirrorSpec(path: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  const specFile = resolve(path);
  const specDir = dirname(specFile);
  const repoRoot = resolve(options.repoRoot ?? findRepoRoot(specDir));
  const diagnostics = new Diagnostics();
  const chain: string[] = [];
  const top: TopFields = new Map();
  let root: MapField | undefined;
  let chainBroken = false;

  let next: string | undefined = specFile;
  let from: Field | undefined;
  while (next !== undefined) {
    const source = await readSpecSource(next);
    const real = realPath(source.file);
    if (chain.includes(real)) {
      from?.fail(`extends forms a cycle: ${[...chain, real].join(" -> ")}`);
      chainBroken = true;
      break;
    }
    if (chain.length >= MAX_EXTENDS_DEPTH) {
      from?.fail(`extends chain longer than ${MAX_EXTENDS_DEPTH} files`);
      chainBroken = true;
      break;
    }
    chain.push(real);
    const map = documentRoot(source, diagnostics);
    if (!map) {
      chainBroken = true;
      break;
    }
    root ??= map;
    map.only(TOP_LEVEL_KEYS);
    for (const { key, field } of map.fields()) {
      if ((TOP_LEVEL_KEYS as string[]).includes(key) && !top.has(key as SectionName) && key !== "extends") {
        top.set(key as SectionName, field);
      }
    }
    next = undefined;
    const parent = map.get("extends");
    if (parent.present) {
      const target = parentPath(parent, source.dir, repoRoot);
      if (target === undefined) {
        chainBroken = true;
        break;
      }
      next = target;
      from = parent;
    }
  }

  const ctx: SectionContext = { specDir, repoRoot, files: options.files ?? diskFiles, warnings: [] };
  // sections are read only from a whole chain: a broken one would report keys as missing that a
  // parent was meant to give
  const spec = root && !chainBroken ? readMirrorSpec(top, root, ctx) : {};
  if (diagnostics.failed) throw new SpecError(ordered(diagnostics.list, chain));
  return { spec, chain, specDir, repoRoot, warnings: ctx.warnings };
}

/** The file an `extends` names, or undefined (reported) when it is not a usable parent. */
function parentPath(parent: Field, dir: string, repoRoot: string): string | undefined {
  const text = parent.string({ nonEmpty: true });
  if (text === undefined) return undefined;
  const target = resolveIn(dir, text);
  const outside = (how: string) =>
    parent.fail(
      `${text} ${how} outside the repository (${repoRoot}); a base spec must live inside it`,
      ExitCode.Usage,
    );
  if (!isInside(repoRoot, target)) return outside("is");
  if (!existsSync(target)) return parent.fail(`${text}: no such file`);
  // the path stays inside; a symlink on the way must not lead out of the repository either
  const real = realPath(target);
  if (!isInside(realPath(repoRoot), real)) return outside(`leads through a symlink to ${real},`);
  return target;
}

function documentRoot(source: SpecSource, diagnostics: Diagnostics): MapField | undefined {
  const field = new Field(source, diagnostics, source.doc.contents, "", source.doc.contents);
  if (field.isNull) {
    field.fail("the file is empty; a mirror spec is a mapping with at least name, target and source");
    return undefined;
  }
  return field.map();
}

/** Diagnostics in the order a reader meets them: by file in the chain, then line and column. */
function ordered(list: SpecDiagnostic[], chain: string[]): SpecDiagnostic[] {
  const rank = (file: string) => {
    const i = chain.indexOf(realPath(file));
    return i < 0 ? chain.length : i;
  };
  return [...list].sort((a, b) => rank(a.file) - rank(b.file) || a.line - b.line || a.col - b.col);
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The nearest directory at or above `start` holding `.git`; `start` itself when none does. */
export function findRepoRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return dir;
    if (dirname(dir) === dir) return start;
  }
}
