import { ExitCode, type Logger, PkgError, registerSecret } from "@pkg/common";
import type { HttpClient } from "@pkg/net";
import type { AnnounceDestination } from "../destination.js";
import { ApiDestination } from "./api-destination.js";
import { coordinateLabel, type ForgeTarget } from "./coordinate.js";
import { DETAIL_CAPABILITY, ForgeHttp } from "./forge-http.js";
import { ForgeoneApi } from "./forgeone-api.js";
import { ForgetwoApi } from "./forgetwo-api.js";
import { resolveGitCredential } from "./git-credential.js";
import { GitDestination } from "./git-destination.js";

export {
  apiBaseUrl,
  DEFAULT_FORGE_HOST,
  type Forge,
  type ForgeCoordinate,
  type ForgeTarget,
  type ForgeTargetInput,
  matchForgeCoordinate,
  PUBLIC_FORGE_HOSTS,
  resolveForgeTarget,
  type Transport,
} from "./coordinate.js";
export { DETAIL_CAPABILITY, DETAIL_NOT_ALLOWLISTED } from "./forge-http.js";

export interface ForgeDestinationOptions {
  target: ForgeTarget;
  /** `<namespace>/<package>`. */
  pkg: string;
  /** Where PKG_ANNOUNCE_TOKEN, PKG_ANNOUNCE_GIT_TOKEN, the ladder and CA variables are read. */
  env: NodeJS.ProcessEnv;
  /** The one HTTP client (API transport); the token is given per request to the API origin only. */
  http: HttpClient;
  log: Logger;
}

/**
 * The destination of an announce to a forge index repository: the API transport (forgeone or
 * forgetwo REST, token PKG_ANNOUNCE_TOKEN) or the git transport (forgetwo). Refuses at once, before
 * anything is read, an API announce without a token (80) or with the CI job's own token, which
 * forgetwo's API does not take for this (82).
 */
export function createForgeDestination(options: ForgeDestinationOptions): AnnounceDestination {
  const { target, pkg, env, log } = options;
  if (target.transport === "git") {
    return new GitDestination({ indexRepo: target.indexRepo, pkg, env, log });
  }
  const token = env.PKG_ANNOUNCE_TOKEN?.trim();
  if (!token) {
    throw new PkgError(
      ExitCode.AuthRejected,
      `no PKG_ANNOUNCE_TOKEN: announcing to ${coordinateLabel(target.indexRepo)} needs an access token that can push${target.fork ? " to the fork" : ""} and open the request`,
    );
  }
  registerSecret(token);
  if (env.CI_JOB_TOKEN?.trim() && token === env.CI_JOB_TOKEN.trim()) {
    throw new PkgError(
      ExitCode.Unsupported,
      `PKG_ANNOUNCE_TOKEN is the CI job token, which the ${target.forge} API does not take for an announce; use an access token, or --transport git on forgetwo`,
      { detail: DETAIL_CAPABILITY },
    );
  }
  const http = new ForgeHttp({
    http: options.http,
    forge: target.forge,
    apiBase: target.apiBase,
    token,
    log,
  });
  const api =
    target.forge === "forgeone" ? new ForgeoneApi(http, target, log) : new ForgetwoApi(http, target, log);
  return new ApiDestination({ api, name: `${target.forge} ${coordinateLabel(target.indexRepo)}`, pkg, log });
}

/**
 * Whether `env` holds a credential for an announce to `target`: PKG_ANNOUNCE_TOKEN for the API
 * transport; for the git transport the ladder `createForgeDestination` follows (PKG_ANNOUNCE_GIT_TOKEN,
 * PKG_AUTH_<HOST>_* or netrc, the CI job's token on that host). Lets a pipeline skip an announce
 * with a notice rather than fail it.
 */
export async function announceCredentialFound(target: ForgeTarget, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (target.transport === "api") return Boolean(env.PKG_ANNOUNCE_TOKEN?.trim());
  return resolveGitCredential(target.indexRepo.host, env).then(
    () => true,
    (error: unknown) => {
      if (error instanceof PkgError && error.exitCode === ExitCode.AuthRejected) return false;
      throw error;
    },
  );
}
