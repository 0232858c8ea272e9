import { Option } from "@commander-js/extra-typings";

/** The options of the commands that read what the target has published (`check`, `pipeline plan`). */
export const verifyPublishedOption = () =>
  new Option(
    "--verify-published",
    "ignore the published summary (__pkg.published) and read every published version's index: for when something other than pkg-mirror moved tags",
  );

export const repoRootOption = () =>
  new Option(
    "--repo-root <dir>",
    "repository root (default: the nearest directory above the spec holding .git)",
  );
