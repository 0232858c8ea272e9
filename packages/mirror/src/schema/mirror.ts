import { closed, filled, ref, type Schema, text, when } from "./builders.js";
import {
  CRON_CHARS,
  DEFAULT_SHELL_IMAGE,
  DIGEST,
  ENV_NAME,
  FORGE_COORDINATE,
  GLIBC_IMAGE,
  HOST_LABEL,
  MUSL_IMAGE,
  PEP440,
  PLATFORM_ARCH,
  PLATFORM_BASE,
  PLATFORM_OS,
  PORT,
  REFERENCE_HOST,
  REPOSITORY,
  TAG,
} from "./patterns.js";
import { SCHEMA_HOST, URL_INDEX_SCHEMA_ID, urlIndexSchema } from "./url-index.js";

export const MIRROR_SCHEMA_ID = `${SCHEMA_HOST}/schemas/mirror/v1.json`;

/*
 * The JSON Schema of mirror.yml, for editors (completion, hover help, red squiggles). The loader in
 * ../spec is authoritative; test/schema-agreement.test.ts keeps the two in agreement and lists
 * the loader's rules a schema cannot state. Patterns stay inside the interoperable ECMA-262 subset
 * (no lookaround), so every editor's validator reads them alike.
 */

/** `if source.type is one of types then …` (only when `source` and its `type` are present). */
function whenSource(types: readonly string[], then: Schema): Schema {
  const condition = {
    required: ["source"],
    properties: { source: { required: ["type"], properties: { type: { enum: types } } } },
  };
  return when(condition, then);
}

const PYTHON_TYPES = ["pylock", "pypi"];
const ASSET_TYPES = ["forgeone_release", "url_index"];
/** A +libc key's containers: every image a known base of that libc. */
const containersOn = (pattern: string, libc: string): Schema => ({
  description: `A +libc.${libc} key is tested only on ${libc} images.`,
  properties: { containers: { items: { properties: { image: { pattern } } } } },
});

const platformKey: Schema = {
  type: "string",
  description:
    "<os>/<arch>[/<variant>][+libc.<flavor>]: os and arch are OCI (GOOS/GOARCH) values, variants v5-v8 on arm and v8 on arm64; quote keys holding '+' in YAML.",
  pattern: `^${PLATFORM_BASE}(\\+libc\\.(glibc|musl)(,libc\\.(glibc|musl))*)?$`,
  allOf: [
    {
      not: { pattern: "^[a-z0-9]+/[a-z0-9]+/(glibc|musl)(\\+|$)" },
      description: "A libc is not a CPU variant.",
    },
    { not: { pattern: "," }, description: "One build has one libc: at most one libc flavor." },
    {
      not: { pattern: "^([^l]|l[^i]|li[^n]|lin[^u]|linu[^x]|linux[^/]).*\\+" },
      description: "libc only on linux.",
    },
  ],
};

/** A bound's literal: either grammar on its own; the source type picks one (see `boundGrammar`). */
const boundLiteral: Schema = {
  type: "string",
  description: 'A version, quoted so YAML keeps it a string ("1.10").',
  anyOf: [ref("version"), ref("pep440")],
};

const generator: Schema = closed(
  {
    command: {
      type: "array",
      description: "The command and its arguments; its stdout is the value.",
      minItems: 1,
      items: filled("One argument."),
    },
    working_directory: filled("Directory to run in, relative to the spec's directory (the default)."),
    timeout_seconds: {
      type: "integer",
      minimum: 1,
      default: 60,
      description: "Seconds before the run fails.",
    },
  },
  { required: ["command"] },
);

const signRef: Schema = {
  type: "string",
  description: "A literal, env://NAME or file://PATH.",
  pattern: "\\S",
  allOf: [
    { not: { pattern: "BEGIN" }, description: "Key material never goes in the spec." },
    when({ pattern: "^env://" }, { pattern: `^env://${ENV_NAME}$` }),
    { not: { enum: ["env://PKG_IDENTITY_TOKEN", "env://PKG_KEY_PASSWORD", "env://PKG_SIGNING_KEY"] } },
    { not: { pattern: "^file://\\s*$" }, description: "A file:// reference names a path." },
  ],
};

const secretRef: Schema = {
  allOf: [ref("signRef"), { pattern: "^(env|file)://" }],
  description: "A secret: env://NAME or file://PATH only, never a literal.",
};

const testEntry: Schema = closed(
  {
    name: text("Unique in the list; the JUnit test-case name.", { pattern: "^[a-zA-Z][a-zA-Z0-9_-]*$" }),
    command: text("A single-line shell command run in the leg's shell.", {
      pattern: "^[^\\r\\n]*\\S[^\\r\\n]*\\s*$",
    }),
    script: filled("Starlark file run by package test --script, relative to the repository root."),
    script_inline: filled("Inline Starlark run by package test --script -."),
  },
  {
    required: ["name"],
    oneOf: [{ required: ["command"] }, { required: ["script"] }, { required: ["script_inline"] }],
  },
);

const container: Schema = closed(
  {
    image: text("OCI image reference the tests run in: [registry/]repository[:tag][@digest].", {
      pattern: `^(${REFERENCE_HOST}/)?${REPOSITORY}(${TAG})?(@[a-z0-9]+([+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,})?$`,
    }),
    shell: filled(
      "Shell inside the container; alpine images default to sh, ubuntu/debian/fedora/rocky/opensuse to bash.",
    ),
    id: text("Stable id for JUnit files and checks; default the image with ':' and '/' as '_'.", {
      pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$",
    }),
    setup: {
      type: "array",
      description: "Commands baked into the image, one RUN each.",
      minItems: 1,
      items: text("One single-line command, not ending in a backslash.", {
        pattern: "^\\s*[^\\r\\n]*[^\\s\\\\]\\s*$",
      }),
    },
  },
  {
    required: ["image"],
    ...when(
      { required: ["image"], properties: { image: { not: { pattern: DEFAULT_SHELL_IMAGE } } } },
      { required: ["shell"] },
    ),
  },
);

const exclude: Schema = closed(
  {
    version: { ...boundLiteral, description: "Exclude exactly this version." },
    min_version: { ...boundLiteral, description: "Inclusive lower bound of the excluded range." },
    max_version: { ...boundLiteral, description: "Exclusive upper bound of the excluded range." },
    reason: text("Shown in the report row of a broken exclude."),
    severity: {
      enum: ["broken", "skip"],
      default: "broken",
      description: "broken: dropped and reported with a lock chip; skip: dropped silently.",
    },
  },
  {
    oneOf: [
      { required: ["version"] },
      { anyOf: [{ required: ["min_version"] }, { required: ["max_version"] }] },
    ],
  },
);

const leg: Schema = closed(
  {
    runner: {
      description: "Runner label set; a single label is a set of one.",
      oneOf: [filled("Runner label."), { type: "array", minItems: 1, items: filled("Runner label.") }],
    },
    containers: {
      type: "array",
      description: "Container legs (linux only); absent runs the tests natively.",
      minItems: 1,
      items: ref("container"),
    },
    shell: filled("Native-leg shell; default pwsh on windows, bash elsewhere."),
    prefix: {
      type: "array",
      description:
        "Prefix of every test command; default [arch, -x86_64] on darwin/amd64 with a macos-* runner.",
      items: filled("One word of the prefix."),
    },
    tests: { ...ref("tests"), description: "Replaces the top-level tests for this platform." },
    min_version: { ...boundLiteral, description: "Inclusive lower bound of the versions built here." },
    max_version: { ...boundLiteral, description: "Exclusive upper bound of the versions built here." },
    exclude: { type: "array", description: "Holes within the version window.", items: ref("exclude") },
  },
  { required: ["runner"] },
);

const policy: Schema = {
  description:
    "off (or false) ignores declared digests; if_present (or true) checks them; require demands one.",
  default: "if_present",
  oneOf: [{ enum: ["off", "if_present", "require"] }, { type: "boolean" }],
};

const bound = (edge: string, bare: string): Schema => ({
  description: `${edge} version bound: a bare version is ${bare}, or {version, inclusive}.`,
  oneOf: [
    boundLiteral,
    closed(
      {
        version: {
          description: "A literal version, or where to read one once per run.",
          oneOf: [
            boundLiteral,
            closed(
              {
                url: text("https URL whose body is the version.", {
                  pattern: "^[hH][tT][tT][pP][sS]://[^\\s\\u0000-\\u001f\\u007f/?#@]+([/?#]\\S*)?$",
                }),
                generator,
                file: filled("File holding the version, relative to the spec's directory."),
              },
              { minProperties: 1, maxProperties: 1 },
            ),
          ],
        },
        inclusive: { type: "boolean", description: "Whether a version equal to the edge is inside." },
      },
      { required: ["version", "inclusive"] },
    ),
  ],
});

/** Literal bounds (bare or in the object form) in the grammar of the source's versions. */
const boundGrammar = (grammar: string): Schema => {
  const literal = when({ type: "string" }, ref(grammar));
  const edge = when({ type: "string" }, ref(grammar), { properties: { version: literal } });
  const legBounds = {
    min_version: ref(grammar),
    max_version: ref(grammar),
    exclude: {
      items: { properties: { version: ref(grammar), min_version: ref(grammar), max_version: ref(grammar) } },
    },
  };
  return {
    properties: {
      versions: { properties: { min: edge, max: edge } },
      platforms: { additionalProperties: { properties: legBounds } },
    },
  };
};

const assetTypeEntry = (stripObject: boolean): Schema =>
  closed(
    {
      type: {
        enum: ["archive", "binary"],
        description: "archive is extracted; binary is the executable itself.",
      },
      strip_components: stripObject
        ? {
            description: "archive only: leading path components dropped, uniform or per platform.",
            default: 0,
            oneOf: [
              { type: "integer", minimum: 0 },
              closed(
                {
                  default: { type: "integer", minimum: 0 },
                  platforms: {
                    type: "object",
                    propertyNames: ref("platformKey"),
                    additionalProperties: { type: "integer", minimum: 0 },
                  },
                },
                { required: ["default"] },
              ),
            ],
          }
        : {
            type: "integer",
            minimum: 0,
            default: 0,
            description: "archive only: leading path components dropped.",
          },
      name: text("binary only: file name of the executable in the package.", {
        pattern: "^[^/\\\\\\u0000]+$",
        not: { enum: [".", ".."] },
      }),
    },
    {
      required: ["type"],
      allOf: [
        when(
          { required: ["type"], properties: { type: { const: "binary" } } },
          { required: ["name"], not: { required: ["strip_components"] } },
          { not: { required: ["name"] } },
        ),
      ],
    },
  );

const sectionOverrides = {
  metadata: ref("metadata"),
  bin_scan: ref("binScan"),
  libc_lint: ref("libcLint"),
  asset_type: ref("assetType"),
};

const variant: Schema = closed(
  {
    name: text("Tag prefix of this variant; 'latest' is reserved.", {
      pattern: "^[a-z][a-z0-9.]*$",
      not: { const: "latest" },
    }),
    default: { type: "boolean", description: "Published unprefixed; exactly one variant sets it." },
    assets: ref("assets"),
    ...sectionOverrides,
  },
  {
    required: ["assets"],
    ...when(
      { not: { required: ["default"], properties: { default: { const: true } } } },
      { required: ["name"] },
    ),
  },
);

const wheelFilter: Schema = {
  description: "PEP 425 platform-tag prefixes, best first; ~ for the key's default filter.",
  oneOf: [
    { type: "null" },
    {
      type: "array",
      minItems: 1,
      uniqueItems: true,
      items: { type: "string", pattern: "^[a-z0-9_]+$" },
      not: { allOf: [{ contains: { pattern: "^manylinux" } }, { contains: { pattern: "^musllinux" } }] },
    },
  ],
};

const noPrefix = (prefix: string): Schema => ({
  oneOf: [{ type: "null" }, { type: "array", not: { contains: { pattern: `^${prefix}` } } }],
});

const python: Schema = closed(
  {
    version: text("Interpreter version, for the wheel-selection marker environment.", {
      pattern: "^[0-9]+\\.[0-9]+(\\.[0-9]+)?((a|b|rc)[0-9]+)?$",
    }),
    abi: text("The interpreter's ABI tag, such as cp313.", {
      pattern: "^[a-z][a-z0-9_]*$",
      not: { enum: ["abi3", "none"] },
    }),
    interpreter_package: text("Package providing python3: registry, repository and a tag or digest.", {
      pattern: `^${REFERENCE_HOST}/${REPOSITORY}(${TAG}(${DIGEST})?|${DIGEST})$`,
    }),
    lock: closed(
      {
        universal: {
          type: "boolean",
          default: true,
          description: "A universal lock rather than a host-pinned one.",
        },
        extras: {
          type: "array",
          default: [],
          uniqueItems: true,
          items: ref("distribution"),
          description: "Extras to include.",
        },
        exclude: {
          type: "array",
          default: [],
          uniqueItems: true,
          items: ref("distribution"),
          description: "Packages left out of resolution.",
        },
        timeout_seconds: { type: "integer", minimum: 1, default: 300, description: "Resolver timeout." },
      },
      { description: "Lock derivation (pypi sources only)." },
    ),
    entrypoints: {
      description: "auto: the app's own console scripts; all: every wheel's; or the listed names.",
      default: "auto",
      oneOf: [
        { enum: ["auto", "all"] },
        {
          type: "array",
          items: closed(
            {
              name: text("Console script name.", { pattern: "^[^\\s/\\\\=:]+$" }),
              min_version: text("Inclusive lower bound of app versions (PEP 440).", {
                $ref: "#/$defs/pep440",
              }),
              max_version: text("Exclusive upper bound of app versions (PEP 440).", {
                $ref: "#/$defs/pep440",
              }),
            },
            { required: ["name"] },
          ),
        },
      ],
    },
  },
  { required: ["version", "abi", "interpreter_package"] },
);

const urlRewrite: Schema = closed(
  {
    from: { ...ref("httpUrl"), description: "URL prefix to replace." },
    to: { ...ref("httpUrl"), description: "URL prefix put in its place." },
  },
  { required: ["from", "to"], description: "Moves the download host by prefix substitution." },
);

/** What the loader adds to the url-index shape when the document is inline: version keys, no credentials. */
const inlineVersions: Schema = {
  propertyNames: ref("version"),
  additionalProperties: {
    properties: {
      assets: {
        additionalProperties: {
          anyOf: [ref("httpUrl"), { type: "object", properties: { url: ref("httpUrl") } }],
        },
      },
    },
  },
};

const sources: Record<string, Schema> = {
  forgeone_release: closed(
    {
      type: { const: "forgeone_release" },
      owner: text("Repository owner.", { pattern: "^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$" }),
      repo: text("Repository name.", { pattern: "^[A-Za-z0-9._-]+$", not: { enum: [".", ".."] } }),
      tag_pattern: text(
        "RE2 regex over release tags; must hold (?P<version>...), may hold (?P<prerelease>...).",
        {
          pattern: "\\(\\?P?<version>",
        },
      ),
      url_rewrite: urlRewrite,
    },
    { required: ["owner", "repo"] },
  ),
  url_index: closed(
    {
      type: { const: "url_index" },
      url: { ...ref("httpUrl"), description: "Fetch the url-index document from here." },
      versions: {
        description: "The url-index document's versions, inline.",
        allOf: [{ $ref: `${URL_INDEX_SCHEMA_ID}#/properties/versions` }, inlineVersions],
      },
      generator: { ...generator, description: "Command whose stdout is the url-index document." },
      url_rewrite: urlRewrite,
    },
    { oneOf: [{ required: ["url"] }, { required: ["versions"] }, { required: ["generator"] }] },
  ),
  pylock: closed(
    {
      type: { const: "pylock" },
      path: filled("Repository-relative path of the PEP 751 lock.", { not: { pattern: "^(/|\\.\\.(/|$))" } }),
      package: ref("distribution"),
    },
    { required: ["path"] },
  ),
  pypi: closed({
    type: { const: "pypi" },
    package: ref("distribution"),
    indexes: {
      type: "array",
      minItems: 1,
      description: "Simple Repository API bases, highest priority first.",
      default: [{ url: "https://pypi.org/simple/" }],
      items: closed({ url: ref("httpUrl") }, { required: ["url"] }),
    },
  }),
};

const source: Schema = {
  type: "object",
  description: "Where upstream versions come from; type selects the model and the keys allowed.",
  required: ["type"],
  properties: { type: { enum: Object.keys(sources) } },
  allOf: Object.entries(sources).map(([type, schema]) =>
    when({ properties: { type: { const: type } } }, schema),
  ),
};

const cron = (description: string): Schema =>
  text(`${description} UTC cron; only 0-9 A-Z a-z * / , - and space.`, {
    pattern: `^${CRON_CHARS}*[0-9A-Za-z*/,-]${CRON_CHARS}*$`,
  });

const { $schema: _draft, ...urlIndexResource } = urlIndexSchema;

const topLevel: Record<string, Schema> = {
  name: filled("Tool name, used in logs and notifications."),
  target: closed(
    {
      registry: text("Registry host[:port], no scheme or path.", {
        pattern: `^(${HOST_LABEL}(\\.${HOST_LABEL})*|\\[[0-9A-Fa-f:.]+\\])${PORT}$`,
      }),
      repository: text("Repository path; '/' segments are kept.", {
        pattern: `^${REPOSITORY}$`,
        maxLength: 255,
      }),
    },
    { required: ["registry", "repository"], description: "Registry and repository to push to." },
  ),
  source,
  assets: ref("assets"),
  variants: {
    type: "array",
    description: "Named asset sets instead of assets, each with its own tag prefix.",
    minItems: 1,
    items: variant,
    contains: { required: ["default"], properties: { default: { const: true } } },
    minContains: 1,
    maxContains: 1,
  },
  ...sectionOverrides,
  python,
  wheels: {
    type: "object",
    description: "Per-platform wheel selection (pylock/pypi); keys <os>/<arch>[+libc.<flavor>].",
    minProperties: 1,
    propertyNames: {
      pattern: `^(${PLATFORM_OS}/${PLATFORM_ARCH}|linux/${PLATFORM_ARCH}\\+libc\\.(glibc|musl))$`,
    },
    patternProperties: {
      "\\+libc\\.glibc$": { allOf: [wheelFilter, noPrefix("musllinux")] },
      "\\+libc\\.musl$": { allOf: [wheelFilter, noPrefix("manylinux")] },
      "^(linux|darwin|windows)/[a-z0-9]+$": wheelFilter,
    },
    additionalProperties: { ...wheelFilter, type: "array" },
  },
  wheel_scope: text("Repository prefix of shared wheel layers.", {
    default: "pip-packages",
    pattern: "^[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*$",
  }),
  skip_prereleases: { type: "boolean", default: false, description: "Skip pre-release versions." },
  build_timestamp: {
    enum: ["datetime", "date", "none"],
    default: "datetime",
    description: "Suffix of the primary tag: _YYYYMMDDHHMMSS, _YYYYMMDD, or none (bare version).",
  },
  cascade: {
    description: "Whether a push re-points X.Y, X and latest; a mapping means enabled.",
    default: true,
    oneOf: [{ type: "boolean" }, closed({ schedule: cron("Repair workflow timer.") })],
  },
  versions: closed(
    {
      min: bound("Lower", "inclusive"),
      max: bound("Upper", "exclusive"),
      new_per_run: { type: "integer", minimum: 1, description: "Cap on new versions published per run." },
      backfill: {
        enum: ["newest_first", "oldest_first"],
        default: "newest_first",
        description: "Which end of the outstanding versions new_per_run takes.",
      },
      poll_interval: cron("Schedule of the generated mirror workflow."),
    },
    { description: "Version window and rate limiter." },
  ),
  verify: closed(
    {
      github_asset_digest: { ...policy, description: `Forge-declared asset digests. ${policy.description}` },
      url_index_digest: { ...policy, description: `url-index sha256 values. ${policy.description}` },
      checksums_file: { ...ref("httpUrl"), description: "URL of a sha256sum-format checksums file." },
    },
    { description: "Checksum verification of downloads." },
  ),
  concurrency: closed(
    {
      max_downloads: { type: "integer", minimum: 1, default: 8, description: "Simultaneous downloads." },
      max_bundles: {
        type: "integer",
        minimum: 1,
        description: "Simultaneous extract-and-compress tasks; default half the cores, at least 1.",
      },
      rate_limit_ms: { type: "integer", minimum: 0, default: 0, description: "Delay between listing pages." },
      max_retries: {
        type: "integer",
        minimum: 0,
        default: 3,
        description: "Extra push attempts on exit 75.",
      },
      compression_threads: {
        type: "integer",
        minimum: 0,
        default: 0,
        description: "Threads per bundle; 0 = auto.",
      },
      max_pushes: { type: "integer", minimum: 1, deprecated: true, description: "Accepted and ignored." },
    },
    { description: "Parallelism, rate limiting and push retry." },
  ),
  tests: { ...ref("tests"), description: "Commands run against each installed bundle." },
  platforms: {
    type: "object",
    description: "CI legs by platform key.",
    propertyNames: ref("platformKey"),
    patternProperties: {
      "^(darwin|windows)/": { allOf: [ref("leg"), { not: { required: ["containers"] } }] },
      "\\+libc\\.musl$": { allOf: [ref("leg"), containersOn(MUSL_IMAGE, "musl")] },
      "\\+libc\\.glibc$": { allOf: [ref("leg"), containersOn(GLIBC_IMAGE, "glibc")] },
    },
    additionalProperties: ref("leg"),
  },
  pkg_mirror: closed(
    { rev: text("Git SHA of the mirroring tool, echoed in plans.", { pattern: "^[0-9a-f]{40}$" }) },
    { description: "Provenance of the mirroring tool; pins nothing." },
  ),
  sign: closed(
    {
      keyless: {
        description: "Keyless signing; {} uses the public infrastructure.",
        oneOf: [
          { type: "null" },
          closed({
            cert_authority: { ...ref("signRef"), description: "Certificate authority URL reference." },
            log: { ...ref("signRef"), description: "Transparency log URL reference." },
            identity_token: { ...secretRef, description: "OIDC token for CIs the tool cannot detect." },
          }),
        ],
      },
      key: {
        description: "Key signing: a key reference, or {ref, passphrase?, log?}.",
        oneOf: [
          ref("signRef"),
          closed(
            {
              ref: ref("signRef"),
              passphrase: { ...secretRef, description: "Passphrase of the key." },
              log: { ...ref("signRef"), description: "Transparency log; absent = no upload." },
            },
            { required: ["ref"] },
          ),
        ],
      },
    },
    {
      description: "Publish-side signing: exactly one of keyless or key.",
      minProperties: 1,
      maxProperties: 1,
    },
  ),
  notify: closed(
    {
      chat: closed(
        {
          webhook_secret: text("Name of the CI secret holding the webhook URL.", {
            pattern: "^[A-Z][A-Z0-9_]+$",
          }),
          user_id: text("Numeric id of the user mentioned on failures.", { pattern: "^[0-9]{17,20}$" }),
        },
        { required: ["webhook_secret"] },
      ),
    },
    { required: ["chat"], description: "Chat-webhook notifications." },
  ),
  announce: closed(
    {
      package: text("Index package <namespace>/<package>.", {
        pattern: "^[a-z0-9]+([._-][a-z0-9]+)*/[a-z0-9]+([._-][a-z0-9]+)*$",
      }),
      fork: {
        ...ref("forgeCoordinate"),
        description: "Fork the request is opened from, [HOST/]NAMESPACE/PROJECT.",
      },
      index_repo: { ...ref("forgeCoordinate"), description: "Index repository, [HOST/]NAMESPACE/PROJECT." },
      forge: { enum: ["forgeone", "forgetwo"], description: "Forge of a self-hosted host." },
      transport: {
        enum: ["api", "git"],
        default: "api",
        description: "git: one authenticated push (forgetwo only, no fork).",
      },
      schedule: cron("Schedule of announce-from-registry."),
    },
    {
      required: ["package"],
      description: "Announce published tags to a package index.",
      ...when(
        { required: ["transport"], properties: { transport: { const: "git" } } },
        { not: { required: ["fork"] }, properties: { forge: { const: "forgetwo" } } },
      ),
    },
  ),
  annotations: {
    type: "object",
    description: "Extra OCI annotations on every index a push writes.",
    propertyNames: { pattern: "^[^=]*[^=\\s][^=]*$" },
    additionalProperties: { type: "string" },
  },
  catalog: closed(
    {
      readme: filled("README path, relative to the spec's directory.", { default: "CATALOG.md" }),
      logo: filled("Logo path, relative to the spec's directory; default logo.svg, then logo.png."),
    },
    { description: "README and logo published as catalog metadata." },
  ),
  allow_manual_edits: {
    type: "boolean",
    default: false,
    description:
      "generate ci: true in every spec of the repository drops the drift guard (verify-generated).",
  },
  extends: filled("Parent spec (relative path) merged key by key under this one."),
};

/** The mirror.yml JSON Schema (draft 2020-12). */
export const mirrorSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: MIRROR_SCHEMA_ID,
  title: "mirror.yml",
  description: "One tool to mirror from upstream releases into an OCI registry.",
  type: "object",
  properties: topLevel,
  additionalProperties: false,
  allOf: [
    when({ not: { required: ["extends"] } }, { required: ["name", "target", "source"] }),
    whenSource(ASSET_TYPES, {
      oneOf: [{ required: ["assets"] }, { required: ["variants"] }],
      not: { anyOf: [{ required: ["python"] }, { required: ["wheels"] }] },
      ...boundGrammar("version"),
    }),
    whenSource(PYTHON_TYPES, {
      required: ["python", "wheels"],
      not: { anyOf: [{ required: ["variants"] }, { required: ["metadata"] }] },
      allOf: [
        { properties: { platforms: { propertyNames: { pattern: "^[a-z0-9]+/[a-z0-9]+$" } } } },
        boundGrammar("pep440"),
      ],
    }),
    whenSource(["pylock"], { properties: { python: { not: { required: ["lock"] } } } }),
  ],
  $defs: {
    platformKey,
    version: {
      type: "string",
      maxLength: 128,
      pattern: "^[0-9]+(\\.[0-9]+){0,3}(-[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?$",
    },
    pep440: { type: "string", maxLength: 128, pattern: PEP440 },
    assets: {
      type: "object",
      description: "Platform key to RE2 regexes over upstream asset names (exactly one match selects).",
      minProperties: 1,
      propertyNames: ref("platformKey"),
      additionalProperties: { type: "array", minItems: 1, items: filled("RE2 regular expression.") },
    },
    metadata: closed(
      {
        default: filled("Package metadata JSON, relative to the spec's directory."),
        platforms: {
          type: "object",
          description: "Per-platform metadata files overriding default.",
          propertyNames: ref("platformKey"),
          additionalProperties: filled("Path relative to the spec's directory."),
        },
      },
      { required: ["default"], description: "Package metadata JSON paths." },
    ),
    binScan: {
      enum: ["off", "auto", "verify"],
      default: "off",
      description: "Derive the binaries claim: off, auto (fill when absent), verify (fill and check).",
    },
    libcLint: {
      type: "boolean",
      default: true,
      description: "Check shipped binaries against the key's libc.",
    },
    assetType: {
      description: "How a download becomes the package: uniform, or {default, platforms}.",
      default: { type: "archive" },
      oneOf: [
        assetTypeEntry(true),
        closed(
          {
            default: assetTypeEntry(true),
            platforms: {
              type: "object",
              propertyNames: ref("platformKey"),
              additionalProperties: assetTypeEntry(false),
            },
          },
          { required: ["default"] },
        ),
      ],
    },
    tests: { type: "array", items: testEntry },
    leg: leg,
    container,
    exclude,
    signRef,
    distribution: text("A Python distribution name (PEP 508).", {
      pattern: "^([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])$",
    }),
    httpUrl: text("An http(s) URL without credentials.", {
      pattern: "^[hH][tT][tT][pP][sS]?://[^\\s\\u0000-\\u001f\\u007f/?#@]+([/?#]\\S*)?$",
    }),
    forgeCoordinate: text("[HOST/]NAMESPACE/PROJECT", {
      pattern: FORGE_COORDINATE,
    }),
    urlIndex: urlIndexResource,
  },
} as const;
