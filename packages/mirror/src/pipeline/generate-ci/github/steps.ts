import type { MirrorSpec } from "../../../spec/mirror-spec.js";
import {
  announceSecrets,
  REGISTRY_TOKEN_SECRET,
  REGISTRY_USER_SECRET,
  type RegistryAccess,
  signsKeyless,
  signVariables,
} from "../access.js";
import { NODE_VERSION, TOOLCHAIN_PACKAGE, TOOLCHAIN_VERSION } from "../pins.js";
import { pinned } from "../yaml-text.js";

/** A workflow step or job as the YAML emitter takes it (keys in rendering order). */
export type Node = Record<string, unknown>;

/** `${{ <expression> }}`. */
export const expr = (expression: string) => `\${{ ${expression} }}`;

/** The steps every job starts with: the repository, Node, the toolchain at the renderer's pin. */
export function setupSteps(): Node[] {
  return [
    { name: "Check out", uses: pinned("checkout"), with: { "persist-credentials": false } },
    { name: "Set up Node", uses: pinned("setupNode"), with: { "node-version": NODE_VERSION } },
    {
      name: "Install the pkg toolchain",
      id: "toolchain",
      env: { PKG_TOOLCHAIN_VERSION: TOOLCHAIN_VERSION },
      run: `npm install --global --no-audit --no-fund "${TOOLCHAIN_PACKAGE}@\${PKG_TOOLCHAIN_VERSION}"\n`,
    },
  ];
}

export function uploadStep(
  name: string,
  artefact: string,
  paths: readonly string[],
  extra: { always?: boolean; retentionDays?: number } = {},
): Node {
  return {
    name,
    ...(extra.always ? { if: "always()" } : {}),
    uses: pinned("uploadArtifact"),
    with: {
      name: artefact,
      path: paths.join("\n"),
      "if-no-files-found": extra.always ? "ignore" : "error",
      "retention-days": extra.retentionDays ?? 1,
    },
  };
}

/** Downloads one artefact by name, or every artefact matching a pattern merged into `path`. */
export function downloadStep(name: string, what: { name: string } | { pattern: string }, path: string): Node {
  return {
    name,
    uses: pinned("downloadArtifact"),
    with:
      "name" in what ? { name: what.name, path } : { pattern: what.pattern, "merge-multiple": true, path },
  };
}

/**
 * The credential-ladder variables of the target registry: on the forge's own registry the run's
 * actor and token; elsewhere the organisation secrets (absent secrets leave both empty, which the
 * tools read as no credential).
 */
export function registryEnv(access: RegistryAccess): Record<string, string> {
  return access.own
    ? { [access.userVar]: expr("github.actor"), [access.tokenVar]: expr("secrets.GITHUB_TOKEN") }
    : {
        [access.userVar]: expr(`secrets.${REGISTRY_USER_SECRET}`),
        [access.tokenVar]: expr(`secrets.${REGISTRY_TOKEN_SECRET}`),
      };
}

/** The id of the step that tells whether registry credentials are there. */
export const CREDENTIALS_STEP = "creds";
/** The condition of a step that needs registry credentials (none on the forge's own registry). */
export const HAVE_CREDENTIALS = `steps.${CREDENTIALS_STEP}.outputs.have == 'true'`;

/**
 * On a registry other than the forge's own: a step that outputs `have=true|false` and, without the
 * token secret, leaves a notice saying what was skipped (the job stays green).
 */
export function credentialsProbe(access: RegistryAccess, skipped: string): Node[] {
  if (access.own) return [];
  const notice = `::notice::No ${REGISTRY_TOKEN_SECRET} secret: ${skipped} skipped. Set ${REGISTRY_USER_SECRET} and ${REGISTRY_TOKEN_SECRET} to publish to ${access.registry}.`;
  return [
    {
      name: "Registry credentials",
      id: CREDENTIALS_STEP,
      env: { [REGISTRY_TOKEN_SECRET]: expr(`secrets.${REGISTRY_TOKEN_SECRET}`) },
      run: [
        `if [ -n "$${REGISTRY_TOKEN_SECRET}" ]; then`,
        `  echo "have=true" >> "$GITHUB_OUTPUT"`,
        "else",
        `  echo ${JSON.stringify(notice)}`,
        `  echo "have=false" >> "$GITHUB_OUTPUT"`,
        "fi",
        "",
      ].join("\n"),
    },
  ];
}

/** `if:` of a step that needs registry credentials: none needed on the forge's own registry. */
export function credentialsGate(access: RegistryAccess): Node {
  return access.own ? {} : { if: HAVE_CREDENTIALS };
}

/** The announce credentials, when the spec announces. */
export function announceEnv(spec: MirrorSpec): Record<string, string> {
  return Object.fromEntries(announceSecrets(spec).map((name) => [name, expr(`secrets.${name}`)]));
}

/** One line per `env://NAME` of `sign`: `secrets.` for keys, passphrases and tokens, `vars.` for URLs. */
export function signEnv(spec: MirrorSpec): Record<string, string> {
  return Object.fromEntries(
    signVariables(spec).map(({ name, kind }) => [
      name,
      expr(`${kind === "secret" ? "secrets" : "vars"}.${name}`),
    ]),
  );
}

/**
 * Shell lines exporting `PKG_MIRROR_JOB_URL`: the link of this job (found by its name through the
 * forge's API, `actions: read`), else the run's; nothing outside a run.
 */
export function jobUrlLines(): string[] {
  return [
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell expansions, not templates
    'if [ -n "${GITHUB_RUN_ID:-}" ]; then',
    `  PKG_MIRROR_JOB_URL=$(gh api "repos/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID/attempts/\${GITHUB_RUN_ATTEMPT:-1}/jobs" --paginate --jq ".jobs[] | select(.name == \\"$JOB_NAME\\") | .html_url" 2>/dev/null | head -n 1) || true`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell expansions, not templates
    '  export PKG_MIRROR_JOB_URL="${PKG_MIRROR_JOB_URL:-$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID}"',
    "fi",
  ];
}

/** The env a step resolving its job link needs. */
export function jobUrlEnv(jobName: string): Record<string, string> {
  return { GH_TOKEN: expr("github.token"), JOB_NAME: jobName };
}

/** Permissions of a job; `id-token: write` where the spec signs keylessly and the job signs. */
export function permissions(
  scopes: Record<string, "read" | "write">,
  options: { spec?: MirrorSpec; signs?: boolean } = {},
): Record<string, string> {
  const out: Record<string, string> = { ...scopes };
  if (options.signs && options.spec && signsKeyless(options.spec)) out["id-token"] = "write";
  return out;
}

/** Only on the default branch for a push event (a feature branch never publishes); any dispatch or schedule. */
export const DEFAULT_BRANCH_ONLY =
  "github.event_name != 'push' || github.ref_name == github.event.repository.default_branch";
