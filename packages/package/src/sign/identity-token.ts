import { ExitCode, PkgError, registerSecret } from "@pkg/common";
import { CIContextProvider, type IdentityProvider } from "@sigstore/sign";

/** The variable the package tool reads an OIDC identity token from (stripped from its children). */
export const IDENTITY_TOKEN_VARIABLE = "PKG_IDENTITY_TOKEN";

/**
 * Where keyless signing gets its OIDC identity token: `PKG_IDENTITY_TOKEN`, else the CI's ambient
 * token (a forge's OIDC token request variables, or `SIGSTORE_ID_TOKEN`), asked for audience
 * `sigstore`. None of them: exit 78.
 */
export function identityProvider(env: NodeJS.ProcessEnv): IdentityProvider {
  const given = env[IDENTITY_TOKEN_VARIABLE]?.trim();
  // checked before anything is pushed; a CI's token is asked for only when a certificate is
  if (!given && !ambientTokenSource(env)) throw noToken();
  if (given) {
    registerSecret(given);
    return { getToken: async () => given };
  }
  const ci = new CIContextProvider("sigstore");
  return {
    getToken: async () => {
      try {
        const token = await ci.getToken();
        registerSecret(token);
        return token;
      } catch {
        throw noToken();
      }
    },
  };
}

/** Whether the environment offers a CI identity token source the signing library reads. */
function ambientTokenSource(env: NodeJS.ProcessEnv): boolean {
  return Boolean(
    (env.ACTIONS_ID_TOKEN_REQUEST_URL && env.ACTIONS_ID_TOKEN_REQUEST_TOKEN) || env.SIGSTORE_ID_TOKEN?.trim(),
  );
}

const noToken = () =>
  new PkgError(
    ExitCode.Config,
    `keyless signing needs an OIDC identity token: set ${IDENTITY_TOKEN_VARIABLE}, or run in a CI that provides one (id-token permission)`,
  );
