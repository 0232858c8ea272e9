import { readdirSync, statSync } from "node:fs";

const mtime = (url: URL): number | undefined => {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return undefined;
  }
};

/**
 * The CLI module a bin (`<package>/bin/<name>.js`, at `binUrl`) runs: the bundle the build made
 * (`dist/cli-bundle/main.js`, quicker to load) while it is newer than every TypeScript build of
 * the workspace's packages (their `tsconfig.tsbuildinfo`), else the modules tsc wrote
 * (`dist/cli/main.js`): after a plain `tsc -b` a bin runs what was just built, never a stale bundle.
 */
export function cliModuleUrl(binUrl: string): URL {
  const modules = new URL("../dist/cli/main.js", binUrl);
  const bundle = new URL("../dist/cli-bundle/main.js", binUrl);
  const bundled = mtime(bundle);
  if (bundled === undefined) return modules;
  const packagesDir = new URL("../../", binUrl);
  let names: string[];
  try {
    names = readdirSync(packagesDir);
  } catch {
    return modules;
  }
  for (const name of names) {
    const built = mtime(new URL(`${name}/tsconfig.tsbuildinfo`, packagesDir));
    if (built !== undefined && built > bundled) return modules;
  }
  return bundle;
}
