// The help of the verify flags, apart from their logic: `pkg exec` shows it in `pkg --help`
// without loading the registry and signing modules.

export const trustedRootHelp =
  "keyless: the Sigstore trusted root JSON (certificate authorities, logs and their keys) to check against (default $PKG_SIGSTORE_TRUSTED_ROOT, else the public instance's)";

export const verifyRefusalHelp = {
  key: "refuse the package unless its manifest carries a signature that verifies with this public key (PATH, file://PATH or env://NAME)",
  identity:
    "refuse the package unless a keyless signature of its manifest holds for exactly this identity (with --verify-issuer)",
  issuer: "the OIDC issuer --verify-identity must come from",
} as const;

/** Whether the verify flags ask for a signature check at all (`--trusted-root` alone does not). */
export function asksVerification(flags: {
  verifyKey?: string;
  verifyIdentity?: string;
  verifyIssuer?: string;
}): boolean {
  return (
    flags.verifyKey !== undefined || flags.verifyIdentity !== undefined || flags.verifyIssuer !== undefined
  );
}
