import { ExitCode, PkgError, registerSecret } from "@pkg/common";
import { resolveCredential } from "@pkg/net";

/** The user name forgetwo takes with a job token, and with an access token whatever its owner. */
export const JOB_TOKEN_USER = "gitlab-ci-token";

export interface GitCredential {
  username: string;
  password: string;
  /** `job`: the CI job's own token (its refusals mean a capability or allowlist gap, not a bad token). */
  kind: "job" | "token";
  /** Where it came from, for messages (never the secret). */
  source: string;
}

/** Whether the CI job runs on the forge host `host` (`host[:port]`), from CI_SERVER_URL or CI_SERVER_HOST/PORT. */
function ciServerIs(host: string, env: NodeJS.ProcessEnv): boolean {
  if (env.CI_SERVER_URL) {
    try {
      return new URL(env.CI_SERVER_URL).host.toLowerCase() === host;
    } catch {
      return false;
    }
  }
  if (!env.CI_SERVER_HOST) return false;
  const port = env.CI_SERVER_PORT && env.CI_SERVER_PORT !== "443" ? `:${env.CI_SERVER_PORT}` : "";
  return `${env.CI_SERVER_HOST}${port}`.toLowerCase() === host;
}

/**
 * The credential of the git transport for the index host, first found: `PKG_ANNOUNCE_GIT_TOKEN`
 * (a push-only deploy token, user `PKG_ANNOUNCE_GIT_USER`, which forgetwo checks for deploy tokens;
 * default `gitlab-ci-token`), then the host-keyed ladder (`PKG_AUTH_<host>_*`, then netrc), then the
 * CI job's own `CI_JOB_TOKEN` when the job runs on that host. None: exit 80.
 */
export async function resolveGitCredential(host: string, env: NodeJS.ProcessEnv): Promise<GitCredential> {
  const jobToken = env.CI_JOB_TOKEN?.trim() || undefined;
  const given = env.PKG_ANNOUNCE_GIT_TOKEN?.trim();
  let found: GitCredential | undefined;
  if (given) {
    found = {
      username: env.PKG_ANNOUNCE_GIT_USER?.trim() || JOB_TOKEN_USER,
      password: given,
      kind: given === jobToken ? "job" : "token",
      source: "PKG_ANNOUNCE_GIT_TOKEN",
    };
  } else {
    const ladder = await resolveCredential(host, { env, dockerConfig: false });
    if (ladder?.kind === "basic") {
      found = { username: ladder.username, password: ladder.password, kind: "token", source: ladder.source };
    } else if (ladder) {
      found = {
        username: ladder.username ?? JOB_TOKEN_USER,
        password: ladder.token,
        kind: "token",
        source: ladder.source,
      };
    } else if (jobToken && ciServerIs(host, env)) {
      found = { username: JOB_TOKEN_USER, password: jobToken, kind: "job", source: "CI_JOB_TOKEN" };
    }
  }
  if (!found) {
    throw new PkgError(
      ExitCode.AuthRejected,
      `no credential for ${host} (--transport git): set PKG_ANNOUNCE_GIT_TOKEN (a deploy token with write_repository, and PKG_ANNOUNCE_GIT_USER its user name), PKG_AUTH_<HOST>_* or a netrc entry, or run in a CI job of that forge (CI_JOB_TOKEN)`,
    );
  }
  registerSecret(found.password);
  return found;
}

/** Names of the variables that carry the credential to the helper in git's environment only. */
export const HELPER_USER_VARIABLE = "PKG_GIT_HELPER_USERNAME";
export const HELPER_SECRET_VARIABLE = "PKG_GIT_HELPER_PASSWORD";

/**
 * The helper: a shell function that answers `get` from two environment variables. Its text holds
 * no secret, so it may be seen in the arguments git gives the shell.
 */
export const CREDENTIAL_HELPER = `!f() { test "$1" = get || exit 0; printf 'username=%s\\npassword=%s\\n' "$${HELPER_USER_VARIABLE}" "$${HELPER_SECRET_VARIABLE}"; }; f`;

/**
 * The environment that hands git the credential for `https://<host>` and nothing else: settings
 * through GIT_CONFIG_COUNT (never argv, never .git/config): every helper configured before is
 * dropped (so none stores the token) and the helper above answers for that host only; the secret
 * itself is in a variable the helper reads.
 */
export function credentialEnvironment(host: string, credential: GitCredential): Record<string, string> {
  const settings: Array<[string, string]> = [
    ["credential.helper", ""],
    [`credential.https://${host}.helper`, CREDENTIAL_HELPER],
  ];
  const env: Record<string, string> = {
    GIT_CONFIG_COUNT: String(settings.length),
    [HELPER_USER_VARIABLE]: credential.username,
    [HELPER_SECRET_VARIABLE]: credential.password,
  };
  settings.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}
