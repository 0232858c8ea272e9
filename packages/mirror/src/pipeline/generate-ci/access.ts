import { credentialSlug } from "@pkg/net";
import type { MirrorSpec } from "../../spec/mirror-spec.js";
import type { SignRef } from "../../spec/sign-ref.js";

export type Forge = "forgeone" | "forgetwo";

/** Each forge's own registry host: its jobs log in there with the run's own token. */
export const FORGE_REGISTRY: Record<Forge, string> = {
  forgeone: "ghcr.io",
  forgetwo: "registry.gitlab.com",
};

/** The organisation secrets (CI variables) holding the credential of any other registry. */
export const REGISTRY_USER_SECRET = "PKG_MIRROR_REGISTRY_USER";
export const REGISTRY_TOKEN_SECRET = "PKG_MIRROR_REGISTRY_TOKEN";

/** How a spec's jobs reach its target registry. */
export interface RegistryAccess {
  registry: string;
  /** The forge's own registry: the run's token, explicit package scopes, no secret read. */
  own: boolean;
  /** The credential-ladder variables the tools read for this host (`PKG_AUTH_<slug>_USER`/`_TOKEN`). */
  userVar: string;
  tokenVar: string;
}

export function registryAccess(spec: MirrorSpec, forge: Forge): RegistryAccess {
  const registry = spec.target?.registry ?? "";
  const slug = credentialSlug(registry);
  return {
    registry,
    own: registry === FORGE_REGISTRY[forge],
    userVar: `PKG_AUTH_${slug}_USER`,
    tokenVar: `PKG_AUTH_${slug}_TOKEN`,
  };
}

/**
 * The target rule the forge enforces on its own registry: the repository's first segment must be
 * the owner of the repository the workflow runs in. A warning (the push would be denied), when
 * both are known; `owner` comes from the forge's variable (`GITHUB_REPOSITORY_OWNER`, ...).
 */
export function ownerWarning(spec: MirrorSpec, forge: Forge, owner: string | undefined): string | undefined {
  const access = registryAccess(spec, forge);
  const repository = spec.target?.repository;
  if (!access.own || owner === undefined || owner === "" || repository === undefined) return undefined;
  const first = repository.split("/")[0] ?? "";
  if (first.toLowerCase() === owner.toLowerCase()) return undefined;
  return `target ${access.registry}/${repository}: on ${access.registry} the first path segment must be the owner of this repository (${owner}), else the push is denied even though login succeeds; use ${access.registry}/${owner}/...`;
}

/** The announce credentials a job that announces reads, by the spec's transport. */
export function announceSecrets(spec: MirrorSpec): string[] {
  if (spec.announce === undefined) return [];
  return spec.announce.transport === "git"
    ? ["PKG_ANNOUNCE_GIT_TOKEN", "PKG_ANNOUNCE_GIT_USER"]
    : ["PKG_ANNOUNCE_TOKEN"];
}

/** Whether the spec signs keylessly (its push and patch jobs then need an identity token). */
export function signsKeyless(spec: MirrorSpec): boolean {
  return spec.sign !== undefined && "keyless" in spec.sign;
}

/**
 * The variables `sign` names through `env://NAME`, each with its class: `secret` for the key, its
 * passphrase and the identity token, `var` for the URLs (a name claimed by both is a secret).
 * Literals and `file://` references need nothing. Sorted by name.
 */
export function signVariables(spec: MirrorSpec): Array<{ name: string; kind: "secret" | "var" }> {
  const sign = spec.sign;
  if (sign === undefined) return [];
  const refs: Array<[SignRef | undefined, "secret" | "var"]> =
    "keyless" in sign
      ? [
          [sign.keyless.cert_authority, "var"],
          [sign.keyless.log, "var"],
          [sign.keyless.identity_token, "secret"],
        ]
      : [
          [sign.key.ref, "secret"],
          [sign.key.passphrase, "secret"],
          [sign.key.log, "var"],
        ];
  const out = new Map<string, "secret" | "var">();
  for (const [ref, kind] of refs) {
    if (ref?.form !== "env") continue;
    if (out.get(ref.name) !== "secret") out.set(ref.name, kind);
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, kind]) => ({ name, kind }));
}
