import { ciPackageManager } from "../config/ci.js";
import type { CiConfig } from "../config/types.js";
import { catalogCommands } from "./catalog-commands.js";
import { generatedHeader } from "./header.js";
import { packageManagerCommands } from "./package-manager.js";
import type { RenderedFile } from "./rendered-file.js";
import { yamlScalar } from "./yaml-text.js";

export const gitlabCiPath = ".gitlab/ci/catalog.yml";

/**
 * A GitLab CI file for `.gitlab-ci.yml` to include: `catalog-build` builds the site into `public/`
 * for merge requests and the default branch, `pages` publishes it from the default branch.
 */
export function renderGitlabCi(ci: CiConfig, configRelPath: string): RenderedFile {
  const manager = ciPackageManager(ci);
  const pm = packageManagerCommands(manager);
  // the oven/bun image has no node: bunx must run the bin on Bun rather than follow its shebang
  const commands = catalogCommands(manager === "bun" ? "bunx --bun" : pm.exec, configRelPath, "public");
  const image = manager === "bun" ? "oven/bun:1" : "node:20";
  // caches must live inside the project directory
  const cacheDir = manager === "bun" ? ".bun-cache" : ".npm";
  const install = manager === "bun" ? pm.install : `${pm.install} --cache .npm --prefer-offline`;
  const variables = manager === "bun" ? ["  variables:", "    BUN_INSTALL_CACHE_DIR: .bun-cache"] : [];
  const check = ci.verifyCi === false ? [] : [`    - ${yamlScalar(commands.check)}`];
  const lines = [
    generatedHeader(configRelPath),
    "# Include it from .gitlab-ci.yml:",
    "#   include:",
    "#     - local: .gitlab/ci/catalog.yml",
    "# and add a daily pipeline schedule on the default branch (Build > Pipeline schedules).",
    "",
    "stages:",
    "  - build",
    "  - deploy",
    "",
    "catalog-build:",
    "  stage: build",
    `  image: ${image}`,
    ...variables,
    "  cache:",
    "    key:",
    "      files:",
    `        - ${pm.lockfile}`,
    "    paths:",
    `      - ${cacheDir}/`,
    "  script:",
    `    - ${yamlScalar(install)}`,
    ...check,
    `    - ${yamlScalar(commands.build)}`,
    "  artifacts:",
    "    paths:",
    "      - public/",
    "    expire_in: 1 day",
    "  interruptible: true",
    "  rules:",
    '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"',
    "    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH",
    "",
    "pages:",
    "  stage: deploy",
    `  image: ${image}`,
    "  needs:",
    "    - catalog-build",
    "  script:",
    "    - test -f public/index.html",
    "  artifacts:",
    "    paths:",
    "      - public/",
    "  resource_group: catalog-pages",
    "  rules:",
    "    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH",
  ];
  return { path: gitlabCiPath, content: `${lines.join("\n")}\n` };
}
