import { stat } from "node:fs/promises";
import { join } from "node:path";
import { finished } from "node:stream/promises";
import { LayoutTarget, RegistryTarget, type Target } from "@pkg/oci";

/**
 * Whether the repository exists at all, for telling "no such repository" from "no tags" once its
 * tag list came back empty (`Target.listTags` gives an empty list for both). A layout repository
 * exists once its `index.json` does; a registry repository unless its tag list answers 404
 * (`NAME_UNKNOWN`). Any other target is taken to exist.
 */
export async function repositoryExists(target: Target): Promise<boolean> {
  if (target instanceof LayoutTarget) {
    return (await stat(join(target.dir, "index.json")).catch(() => undefined))?.isFile() === true;
  }
  if (target instanceof RegistryTarget) {
    const response = await target.client.request({
      method: "GET",
      url: `/v2/${target.repository}/tags/list?n=1`,
      scopes: [`repository:${target.repository}:pull`],
      operation: `list tags of ${target.displayName}`,
    });
    response.body.resume();
    await finished(response.body).catch(() => undefined);
    return response.status !== 404;
  }
  return true;
}
