import { NATIVE_CONTAINER_ID, PLAN_SCHEMA_VERSION } from "../pipeline/documents/plan-document.js";
import { filled, ref, type Schema, text, when } from "./builders.js";
import { mirrorSchema } from "./mirror.js";
import { SCHEMA_HOST } from "./url-index.js";

export const PLAN_SCHEMA_ID = `${SCHEMA_HOST}/schemas/plan/v${PLAN_SCHEMA_VERSION}.json`;

/*
 * The JSON Schema of plan.json (`pipeline plan --format json`, `-o`). Objects stay open: a consumer
 * ignores keys it does not know, so a newer pkg-mirror may add keys without breaking a validator
 * holding this schema; renaming, removing or changing a key bumps schema_version (and the $id).
 */

/** An object with these properties, `required` among them. */
const object = (properties: Record<string, Schema>, required: string[], extra: Schema = {}): Schema => ({
  type: "object",
  properties,
  required,
  ...extra,
});

const stringList = (description: string, extra: Schema = {}): Schema => ({
  type: "array",
  description,
  items: { type: "string" },
  ...extra,
});

const platformOf = (what: string): Schema => ({ ...ref("platformKey"), description: what });

const asset = object(
  {
    platform: platformOf("Full platform key, +libc.* included."),
    asset_name: filled("The upstream asset's file name."),
    url: text("Where prepare downloads it."),
    digest: text("sha256:<hex> the source declares; absent when it declares none.", {
      pattern: "^sha256:[0-9a-f]{64}$",
    }),
  },
  ["platform", "asset_name", "url"],
);

const version = object(
  {
    version: filled(
      "The tag to publish: the primary tag fixed at plan time (build stamp and variant prefix included); the key prepare, artefacts and JUnit files use.",
    ),
    source_version: filled("The upstream version text."),
    variant: filled("The non-default variant; absent for the default one."),
    kind: {
      enum: ["new", "backfill", "metadata-drift"],
      description:
        "new: nothing of the version published; backfill: some platforms published; metadata-drift: published, metadata changed since (never with new or backfill).",
    },
    platforms: {
      type: "array",
      description: "Platform keys still to build; empty for metadata-drift.",
      items: ref("platformKey"),
    },
    assets: { type: "array", description: "One resolved asset per platform.", items: asset },
    pylock: filled("Python sources: the derived lock's path relative to the plan file's directory."),
    refused: {
      type: "array",
      description: "Pairs whose asset could not be chosen: they fail without being built.",
      items: object({ platform: platformOf("Platform key."), message: filled("Why.") }, [
        "platform",
        "message",
      ]),
    },
    excluded: {
      type: "array",
      description: "Pairs a broken exclude holds out, with the exclude's reason.",
      items: object({ platform: platformOf("Platform key."), reason: text("The exclude's reason.") }, [
        "platform",
      ]),
    },
    carried: {
      type: "array",
      description: "Platforms earlier runs published, carried into the version's tags.",
      items: ref("platformKey"),
    },
    own_tags: stringList("With carried: the version's own tags, oldest first."),
    drift: {
      type: "array",
      description: "metadata-drift: per published platform, the metadata fields that differ.",
      items: object(
        {
          platform: platformOf("Platform key."),
          fields: stringList("Top-level metadata fields.", { minItems: 1 }),
        },
        ["platform", "fields"],
      ),
    },
  },
  ["version", "source_version", "kind", "platforms", "assets"],
  {
    allOf: [
      when(
        { properties: { kind: { const: "metadata-drift" } } },
        { required: ["drift"], properties: { platforms: { maxItems: 0 }, assets: { maxItems: 0 } } },
        { not: { required: ["drift"] } },
      ),
    ],
  },
);

const container = object(
  {
    id: text(`The JUnit and gating key; ${NATIVE_CONTAINER_ID} on a native leg.`, {
      pattern: "^[A-Za-z0-9][A-Za-z0-9._-]*$",
    }),
    image: filled("The image tests run in; absent on the native entry."),
    shell: filled("The shell test commands run in."),
    libc: { enum: ["glibc", "musl"], description: "The image's libc; absent on native entries." },
    setup: stringList("Image-build commands, one RUN each.", { minItems: 1 }),
  },
  ["id", "shell"],
);

const leg = object(
  {
    runner: stringList("Runner labels, always a list.", { minItems: 1 }),
    platform_slug: text("Join key of artefacts and JUnit files (linux-amd64-musl): use verbatim.", {
      pattern: "^[a-z0-9]+(-[a-z0-9]+)*$",
    }),
    container_platform: text("The key without +libc.*: a container engine's platform.", {
      pattern: "^[a-z0-9]+/[a-z0-9]+(/[a-z0-9]+)?$",
    }),
    containers: {
      type: "array",
      description: `Never empty: one ${NATIVE_CONTAINER_ID} entry when the leg has no containers.`,
      minItems: 1,
      items: container,
    },
    tests: {
      ...ref("tests"),
      description: "platforms.<p>.tests when given (it replaces), else the top-level tests.",
    },
    prefix: stringList("Prepended to every test command."),
  },
  ["runner", "platform_slug", "container_platform", "containers", "tests", "prefix"],
);

export const planSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: PLAN_SCHEMA_ID,
  title: `plan.json v${PLAN_SCHEMA_VERSION}`,
  description:
    "What pkg-mirror package pipeline plan decided: the (version, platform) pairs still to build, published versions whose metadata drifted, and the CI legs. Optional keys are omitted, never null; consumers ignore unknown keys.",
  ...object(
    {
      schema_version: { const: PLAN_SCHEMA_VERSION },
      target: filled("registry/repository."),
      pkg_mirror_rev: text("The spec's pkg_mirror.rev; absent when unset.", { pattern: "^[0-9a-f]{40}$" }),
      versions_resolved: object(
        {
          min: filled("The lower edge as resolved for this plan; absent when unset."),
          min_inclusive: { type: "boolean" },
          max: filled("The upper edge as resolved for this plan; absent when unset."),
          max_inclusive: { type: "boolean" },
        },
        ["min_inclusive", "max_inclusive"],
      ),
      has_new: { type: "boolean", description: "Some entry is new or backfill." },
      has_drift: { type: "boolean", description: "Some entry is metadata-drift." },
      versions: { type: "array", description: "Oldest first.", items: version },
      legs: {
        type: "object",
        description: "The CI matrix: one leg per platforms: key; {} without platforms.",
        propertyNames: ref("platformKey"),
        additionalProperties: leg,
      },
    },
    ["schema_version", "target", "versions_resolved", "has_new", "has_drift", "versions", "legs"],
  ),
  $defs: {
    platformKey: mirrorSchema.$defs.platformKey,
    tests: mirrorSchema.$defs.tests,
  },
};
