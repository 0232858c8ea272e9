import { shellWord } from "./yaml-text.js";

/** The pkg-catalog invocations every rendered workflow runs, given the package manager's exec prefix. */
export function catalogCommands(exec: string, configRelPath: string, outDir: string) {
  const config = shellWord(configRelPath);
  return {
    check: `${exec} pkg-catalog ci ${config} --check`,
    build: `${exec} pkg-catalog build ${config} --out ${shellWord(outDir)}`,
  };
}
