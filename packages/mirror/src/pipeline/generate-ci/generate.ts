import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ExitCode, PkgError, writeAtomically } from "@pkg/common";
import type { SpecDiagnostic } from "../../spec/diagnostics.js";
import type { Forge } from "./access.js";
import { hasDrifted } from "./drift.js";
import { GITLAB_CI_PATH } from "./gitlab/parent.js";
import { isGeneratedText } from "./header.js";
import { deepestCommonDir, loadSlots } from "./load-slots.js";
import { type GeneratedFile, type Rendered, renderCi } from "./render.js";

export interface GenerateOptions {
  specs: readonly string[];
  repoRoot?: string;
  forge: Forge;
  /** Compare with what is on disk; write nothing. */
  check: boolean;
  generatorVersion: string;
  env: NodeJS.ProcessEnv;
}

export interface GenerateResult {
  repoRoot: string;
  files: GeneratedFile[];
  /** Written (changed or new) files; with `check`, always empty. */
  written: string[];
  /** Generated files no spec renders any more: removed, or with `check` reported. */
  stale: string[];
  /** With `check`: rendered files missing or different on disk (pins aside). */
  drift: string[];
  warnings: string[];
  specWarnings: SpecDiagnostic[];
}

/**
 * `generate ci`: renders every spec, then writes the files that changed and removes generated
 * files no spec renders any more (hand-written files are never touched: one in the way is 64),
 * or with `check` only compares. The caller turns drift into exit 65.
 */
export async function generateCi(options: GenerateOptions): Promise<GenerateResult> {
  const { repoRoot, rendered, specWarnings } = await renderSpecs(options);
  const existing = await generatedOnDisk(repoRoot, options.forge);
  const paths = new Set(rendered.files.map((f) => f.path));
  const stale = [...existing.keys()].filter((path) => !paths.has(path)).sort();
  const result: GenerateResult = {
    repoRoot,
    files: rendered.files,
    written: [],
    stale,
    drift: [],
    warnings: rendered.warnings,
    specWarnings,
  };
  const onDisk = await Promise.all(rendered.files.map((file) => readOptional(join(repoRoot, file.path))));
  if (options.check) {
    result.drift = rendered.files
      .filter((file, i) => {
        const text = onDisk[i];
        return text === undefined || hasDrifted(file.text, text);
      })
      .map((file) => file.path);
    return result;
  }
  rendered.files.forEach((file, i) => {
    const text = onDisk[i];
    if (text !== undefined && !isGeneratedText(text)) {
      throw new PkgError(
        ExitCode.Usage,
        `${file.path} exists and was not generated (no generated-file header); it is never overwritten: move it away or rename it`,
      );
    }
  });
  for (const [i, file] of rendered.files.entries()) {
    if (onDisk[i] === file.text) continue;
    const path = join(repoRoot, file.path);
    await mkdir(dirname(path), { recursive: true });
    await writeAtomically(path, "workflow", (temp) => writeFile(temp, file.text));
    result.written.push(file.path);
  }
  for (const path of stale) await rm(join(repoRoot, path), { force: true });
  return result;
}

/**
 * Loads and renders the specs, reading nothing else: what `generate ci` would write, by path. The
 * drift guard gets `--repo-root .` when the specs alone would give another root.
 */
export async function renderSpecs(
  options: Pick<GenerateOptions, "specs" | "repoRoot" | "forge" | "generatorVersion" | "env">,
): Promise<{ repoRoot: string; rendered: Rendered; specWarnings: SpecDiagnostic[] }> {
  const specs = options.specs.length > 0 ? options.specs : ["mirror.yml"];
  const loaded = await loadSlots(specs, options.repoRoot === undefined ? {} : { repoRoot: options.repoRoot });
  const defaultRoot = deepestCommonDir(specs.map((spec) => dirname(resolve(spec))));
  const rendered = renderCi(loaded.slots, {
    generatorVersion: options.generatorVersion,
    forge: options.forge,
    repoRootArg: resolve(defaultRoot) !== resolve(loaded.repoRoot),
    ...ownerOf(options.forge, options.env),
  });
  return { repoRoot: loaded.repoRoot, rendered, specWarnings: loaded.warnings };
}

/** The generated files already in the repository, by path: workflows with the header (or the GitLab file). */
async function generatedOnDisk(repoRoot: string, forge: Forge): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (forge === "forgetwo") {
    const text = await readOptional(join(repoRoot, GITLAB_CI_PATH));
    if (text !== undefined && isGeneratedText(text)) out.set(GITLAB_CI_PATH, text);
    return out;
  }
  const dir = join(repoRoot, ".github", "workflows");
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return out;
  }
  for (const name of names.sort()) {
    if (!/\.ya?ml$/.test(name)) continue;
    const text = await readOptional(join(dir, name));
    if (text !== undefined && isGeneratedText(text)) out.set(`.github/workflows/${name}`, text);
  }
  return out;
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "ENOTDIR") return undefined;
    throw new PkgError(ExitCode.IoError, `cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** The owner of the repository the command runs in, from the forge's variables (known on a runner). */
function ownerOf(forge: Forge, env: NodeJS.ProcessEnv): { owner?: string } {
  const owner =
    forge === "forgeone"
      ? env.GITHUB_REPOSITORY_OWNER || env.GITHUB_REPOSITORY?.split("/")[0]
      : env.CI_PROJECT_ROOT_NAMESPACE || env.CI_PROJECT_NAMESPACE?.split("/")[0];
  return owner ? { owner } : {};
}
