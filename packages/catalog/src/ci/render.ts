import { dataError } from "@pkg/common";
import type { CatalogConfig } from "../config/types.js";
import { renderGithubWorkflow } from "./github.js";
import { renderGitlabCi } from "./gitlab.js";
import type { RenderedFile } from "./rendered-file.js";

/**
 * The CI files for `config.ci`, each with its path relative to the config file's directory.
 * `configRelPath` is how the rendered jobs name the config file from that directory.
 * Keys of `ci` this renderer does not know are ignored.
 */
export function renderCiFiles(config: CatalogConfig, configRelPath: string): RenderedFile[] {
  const ci = config.ci;
  if (ci === undefined)
    throw dataError(`${config.file}: no ci section: add "ci": {"forge": "github"} or "gitlab"`);
  return ci.forge === "github"
    ? [renderGithubWorkflow(ci, configRelPath)]
    : [renderGitlabCi(ci, configRelPath)];
}
