import { realpathSync } from "node:fs";
import { dirname, isAbsolute, posix, relative, resolve, sep } from "node:path";
import { ExitCode, isInside, PkgError } from "@pkg/common";
import { PROBED_LOGOS } from "../../spec/catalog.js";
import type { SpecFiles } from "../../spec/context.js";
import { diskFiles } from "../../spec/context.js";
import type { SpecDiagnostic } from "../../spec/diagnostics.js";
import { type LoadedSpec, loadMirrorSpec } from "../../spec/loader.js";
import { metadataFiles } from "../../spec/metadata.js";
import type { MirrorSpec } from "../../spec/mirror-spec.js";
import type { TestEntry } from "../../spec/tests.js";
import { type SpecSlot, slotSuffix } from "./slot.js";

export interface LoadedSlots {
  repoRoot: string;
  /** Sorted by directory (the root spec first): the output never depends on the order of `--spec`. */
  slots: SpecSlot[];
  /** Load warnings of every spec. */
  warnings: SpecDiagnostic[];
}

/**
 * Loads the specs `generate ci` renders: each inside the repository root (default: the deepest
 * directory every spec shares), one per directory, each with platforms and tests, every test
 * script present under the repository root. Refusals: 64 for a spec outside the root, two specs in
 * one directory or two directories that would name the same files; 65 for what the spec lacks.
 */
export async function loadSlots(
  specPaths: readonly string[],
  options: { repoRoot?: string; files?: SpecFiles } = {},
): Promise<LoadedSlots> {
  const files = options.files ?? diskFiles;
  const absolute = dedupe(specPaths.map((path) => resolve(path)));
  const repoRoot = resolve(options.repoRoot ?? deepestCommonDir(absolute.map((path) => dirname(path))));
  for (const path of absolute) {
    if (!isInside(repoRoot, path)) {
      throw new PkgError(
        ExitCode.Usage,
        `${path} is outside the repository root ${repoRoot}; give --repo-root a directory holding every spec`,
      );
    }
  }
  const byDir = new Map<string, string>();
  for (const path of absolute) {
    const dir = repoRelative(repoRoot, dirname(path));
    const other = byDir.get(dir);
    if (other !== undefined) {
      throw new PkgError(
        ExitCode.Usage,
        `${repoRelative(repoRoot, other)} and ${repoRelative(repoRoot, path)} are in one directory; a directory holds one spec (both would render the same workflow files)`,
      );
    }
    byDir.set(dir, path);
  }
  const bySuffix = new Map<string, string>();
  for (const dir of byDir.keys()) {
    const suffix = slotSuffix(dir);
    const other = bySuffix.get(suffix);
    if (other !== undefined) {
      throw new PkgError(
        ExitCode.Usage,
        `the specs in ${other} and ${dir} would both write workflows named *${suffix}.yml; rename one of the directories`,
      );
    }
    bySuffix.set(suffix, dir);
  }

  const slots: SpecSlot[] = [];
  const warnings: SpecDiagnostic[] = [];
  for (const [dir, path] of [...byDir].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const loaded = await loadMirrorSpec(path, { repoRoot, files });
    warnings.push(...loaded.warnings);
    slots.push(placeSlot(loaded, { repoRoot, dir, specPath: repoRelative(repoRoot, path) }, files));
  }
  return { repoRoot, slots, warnings };
}

function placeSlot(
  loaded: LoadedSpec,
  place: { repoRoot: string; dir: string; specPath: string },
  files: SpecFiles,
): SpecSlot {
  const { spec } = loaded;
  const { repoRoot, dir, specPath } = place;
  requireCiKeys(spec, specPath);
  const inDir = (path: string) => posix.normalize(posix.join(dir, path));
  const scripts = testScripts(spec).map(({ script, at }) => {
    checkScript(script, at, { repoRoot, specDir: loaded.specDir, specPath, dir, files });
    return posix.normalize(script);
  });
  const metadata = spec.metadata ? metadataFiles(spec.metadata).map((m) => inDir(m.path)) : [];
  const catalog = spec.catalog;
  const catalogPaths = [
    ...(catalog ? [inDir(catalog.readme)] : []),
    ...(catalog?.logo !== undefined && !(PROBED_LOGOS as readonly string[]).includes(catalog.logo)
      ? [inDir(catalog.logo)]
      : []),
    inDir("logo.*"),
  ];
  return {
    spec,
    specPath,
    dir,
    // the loader gives the chain as real paths
    chain: [specPath, ...loaded.chain.slice(1).map((file) => repoRelative(realPath(repoRoot), file))],
    scripts: sortedUnique(scripts),
    metadataFiles: sortedUnique(metadata),
    catalogPaths: sortedUnique(catalogPaths.filter(insideRepo)),
    planInputs: sortedUnique(planInputs(spec, inDir).filter(insideRepo)),
  };
}

/** `tests` and `platforms` are required by `generate ci`, and every leg needs a test to run. */
function requireCiKeys(spec: MirrorSpec, specPath: string): void {
  const platforms = Object.entries(spec.platforms ?? {});
  if (platforms.length === 0) {
    throw new PkgError(
      ExitCode.Data,
      `${specPath}: generate ci needs platforms (each platform's runner and containers make the test matrix)`,
    );
  }
  const bare = platforms
    .filter(([, leg]) => (leg.tests ?? spec.tests ?? []).length === 0)
    .map(([key]) => key);
  if (bare.length > 0) {
    throw new PkgError(
      ExitCode.Data,
      `${specPath}: generate ci needs tests (at least one entry) for ${bare.join(", ")}: add a top-level tests list or tests under each platform`,
    );
  }
}

function testScripts(spec: MirrorSpec): Array<{ script: string; at: string }> {
  const out: Array<{ script: string; at: string }> = [];
  const scan = (tests: readonly TestEntry[] | undefined, at: string) =>
    tests?.forEach((test, i) => {
      if ("script" in test) out.push({ script: test.script, at: `${at}[${i}].script` });
    });
  scan(spec.tests, "tests");
  for (const [key, leg] of Object.entries(spec.platforms ?? {})) scan(leg.tests, `platforms.${key}.tests`);
  return out;
}

/**
 * A test script resolves from the repository root; one that is not there is 65, naming the path
 * to write when the spec's directory holds a file of that name (the usual slip in a nested spec).
 */
function checkScript(
  script: string,
  at: string,
  where: { repoRoot: string; specDir: string; specPath: string; dir: string; files: SpecFiles },
): void {
  const fromRoot = resolve(where.repoRoot, script);
  const escapes = isAbsolute(script) || !isInside(where.repoRoot, fromRoot);
  if (escapes) {
    throw new PkgError(
      ExitCode.Data,
      `${where.specPath}: ${at} ${JSON.stringify(script)} leads outside the repository; a test script resolves from the repository root`,
    );
  }
  if (where.files.isFile(fromRoot)) return;
  const fromSpecDir = resolve(where.specDir, script);
  if (where.dir !== "" && where.files.isFile(fromSpecDir) && isInside(where.repoRoot, fromSpecDir)) {
    const written = repoRelative(where.repoRoot, fromSpecDir);
    throw new PkgError(
      ExitCode.Data,
      `${where.specPath}: ${at} ${JSON.stringify(script)} resolves from the repository root, where there is no such file; the spec's directory has it: write script: ${written}`,
    );
  }
  throw new PkgError(
    ExitCode.Data,
    `${where.specPath}: ${at} ${JSON.stringify(script)}: no such file under the repository root (scripts resolve from there); write it at ${posix.normalize(script)}`,
  );
}

/** Files the plan reads besides the spec: a bound's `file`, a generator's working directory. */
function planInputs(spec: MirrorSpec, inDir: (path: string) => string): string[] {
  const out: string[] = [];
  const source = spec.source;
  const workDir = source?.type === "url_index" ? source.generator?.working_directory : undefined;
  if (workDir !== undefined) out.push(`${inDir(workDir)}/**`);
  for (const bound of [spec.versions?.min, spec.versions?.max]) {
    const version = bound?.version;
    if (typeof version !== "object") continue;
    if ("file" in version) out.push(inDir(version.file));
    if ("generator" in version && version.generator.working_directory !== undefined)
      out.push(`${inDir(version.generator.working_directory)}/**`);
  }
  return out;
}

/** The deepest directory holding every one of `dirs`. */
export function deepestCommonDir(dirs: readonly string[]): string {
  const [first, ...rest] = dirs.map((dir) => resolve(dir).split(sep));
  if (!first) return process.cwd();
  let length = first.length;
  for (const parts of rest) {
    let i = 0;
    while (i < length && i < parts.length && parts[i] === first[i]) i++;
    length = i;
  }
  return first.slice(0, length).join(sep) || sep;
}

/** `path` relative to `root` with `/` separators; empty for the root itself. */
export function repoRelative(root: string, path: string): string {
  return relative(root, path).split(sep).join("/");
}

const insideRepo = (path: string) => path !== ".." && !path.startsWith("../");

function sortedUnique(items: readonly string[]): string[] {
  return [...new Set(items)].sort();
}

function dedupe(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((path) => {
    const key = realPath(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
