import type { MirrorSpec } from "../spec/mirror-spec.js";

export const SOURCE_ANNOTATION = "org.opencontainers.image.source";
export const REVISION_ANNOTATION = "org.opencontainers.image.revision";

/**
 * The three CI variables the annotations come from, and the only environment this module reads.
 * They are the names the GitHub-style forge's runner sets in every workflow step by itself: the
 * tool cannot choose them (unlike `FORGEONE_TOKEN`, which the tool defines and a workflow fills),
 * and neutral names would be set by no runner, so the annotations would silently never appear.
 * The generated workflows target that runner only.
 */
export const CI_ANNOTATION_VARIABLES = {
  serverUrl: "GITHUB_SERVER_URL",
  repository: "GITHUB_REPOSITORY",
  revision: "GITHUB_SHA",
} as const;

function variable(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/**
 * `org.opencontainers.image.source` (`<server_url>/<repository>`: the mirror's own repository) and
 * `org.opencontainers.image.revision` (the commit), each only when its variables are set: outside
 * CI nothing is written and a push leaves the registry's existing values alone.
 */
export function ciAnnotations(env: NodeJS.ProcessEnv): Record<string, string> {
  const annotations: Record<string, string> = {};
  const server = variable(env, CI_ANNOTATION_VARIABLES.serverUrl);
  const repository = variable(env, CI_ANNOTATION_VARIABLES.repository);
  const revision = variable(env, CI_ANNOTATION_VARIABLES.revision);
  if (server && repository) {
    annotations[SOURCE_ANNOTATION] = `${server.replace(/\/+$/, "")}/${repository.replace(/^\/+/, "")}`;
  }
  if (revision) annotations[REVISION_ANNOTATION] = revision;
  return annotations;
}

/**
 * The annotations for the image index of every tag a push writes: the CI pair, then the spec's
 * `annotations`, each of which replaces the detected value of its key only (values verbatim).
 */
export function annotationsFor(
  spec: Pick<MirrorSpec, "annotations">,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  return { ...ciAnnotations(env), ...(spec.annotations ?? {}) };
}
