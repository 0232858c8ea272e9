/**
 * The forge coordinate grammar, `[HOST/]NAMESPACE/PROJECT`, is the announce machinery's
 * (`@pkg/package/announce`): the spec loader reads `announce.fork` and `announce.index_repo` with
 * the same parser `pkg package announce` reads its flags with.
 */
export {
  DEFAULT_FORGE_HOST,
  type Forge,
  type ForgeCoordinate,
  matchForgeCoordinate,
  PUBLIC_FORGE_HOSTS,
} from "@pkg/package/announce";

/** The tool's own public index repository, where `announce` goes when `index_repo` is absent. */
export const DEFAULT_INDEX_REPO = "pkg-sh/index";
