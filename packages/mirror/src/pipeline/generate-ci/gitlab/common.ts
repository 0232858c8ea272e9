import { shQuote } from "@pkg/common";
import type { MirrorSpec } from "../../../spec/mirror-spec.js";
import { REGISTRY_TOKEN_SECRET, REGISTRY_USER_SECRET, registryAccess, signsKeyless } from "../access.js";
import { GITLAB_IMAGE, TOOLCHAIN_PACKAGE, TOOLCHAIN_VERSION } from "../pins.js";
import { commandLine } from "../shell-line.js";
import { type SpecSlot, slotSuffix } from "../slot.js";

/** A job or any mapping as the YAML emitter takes it. */
export type Node = Record<string, unknown>;

/** The hidden job every generated job extends: the toolchain at the renderer's pin. */
export const TOOLCHAIN_TEMPLATE = ".pkg-mirror-toolchain";

export function toolchainTemplate(): Node {
  return {
    image: GITLAB_IMAGE,
    before_script: [
      commandLine([
        "npm",
        "install",
        "--global",
        "--no-audit",
        "--no-fund",
        `${TOOLCHAIN_PACKAGE}@${TOOLCHAIN_VERSION}`,
      ]),
    ],
  };
}

/** A job name with the spec's suffix: `discover`, `discover-tools-jq`. */
export const jobName = (base: string, slot: Pick<SpecSlot, "dir">) => `${base}${slotSuffix(slot.dir)}`;

/**
 * Script lines giving the tools the target registry's credential: the job's own registry login on
 * the forge's own registry, else the `PKG_MIRROR_REGISTRY_USER`/`_TOKEN` CI variables (empty when
 * unset: no credential). With `gate`, a job without the token variable stops green with a notice.
 */
export function credentialLines(spec: MirrorSpec, gate?: string): string[] {
  const access = registryAccess(spec, "forgetwo");
  if (access.own) {
    return [`export ${access.userVar}="$CI_REGISTRY_USER" ${access.tokenVar}="$CI_REGISTRY_PASSWORD"`];
  }
  const lines = [
    `export ${access.userVar}="\${${REGISTRY_USER_SECRET}:-}" ${access.tokenVar}="\${${REGISTRY_TOKEN_SECRET}:-}"`,
  ];
  if (gate !== undefined) {
    const notice = `notice: no ${REGISTRY_TOKEN_SECRET} variable: ${gate} skipped; set ${REGISTRY_USER_SECRET} and ${REGISTRY_TOKEN_SECRET} to publish to ${access.registry}`;
    lines.unshift(`if [ -z "\${${REGISTRY_TOKEN_SECRET}:-}" ]; then echo ${shQuote(notice)}; exit 0; fi`);
  }
  return lines;
}

/** An identity token for keyless signing on the jobs that sign (push, patch). */
export function signIdToken(spec: MirrorSpec): Node {
  return signsKeyless(spec) ? { id_tokens: { SIGSTORE_ID_TOKEN: { aud: "sigstore" } } } : {};
}

/** `dir/**` in GitLab's glob dialect (`dir/**\/*`). */
export function gitlabGlob(path: string): string {
  return path.endsWith("/**") ? `${path}/*` : path;
}
