/**
 * The variables the package tool reads signing secrets from: never passed to a process the tools
 * start (a package's command, a test script, a generator, git, a credential helper), so nothing
 * they run can read them. Exactly these three: a spec names its own secrets under other names.
 */
export const SIGNING_SECRET_VARIABLES = [
  "PKG_IDENTITY_TOKEN",
  "PKG_KEY_PASSWORD",
  "PKG_SIGNING_KEY",
] as const;

/** A copy of `env` without the signing secret variables (any case on Windows-style environments). */
export function childEnvironment<T extends Record<string, string | undefined>>(env: T): T {
  const out = { ...env };
  for (const key of Object.keys(out)) {
    if ((SIGNING_SECRET_VARIABLES as readonly string[]).includes(key.toUpperCase())) delete out[key];
  }
  return out;
}
