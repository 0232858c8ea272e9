/** Where the JSON Schemas of the tool family are published (`{schema_host}` in the spec). */
export const SCHEMA_HOST = "https://schemas.pkg-tools.dev";

export const URL_INDEX_SCHEMA_ID = `${SCHEMA_HOST}/schemas/url-index/v1.json`;

/**
 * The url-index v1 document: `versions` maps a version to `{prerelease?, assets}`, and an asset
 * value is a URL string or `{url, sha256}` (the two forms mix freely). The `$id` stays the same
 * as additive forms arrive.
 */
export const urlIndexSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: URL_INDEX_SCHEMA_ID,
  title: "url-index v1",
  description: "Versions of an upstream tool and the download URL of each release asset.",
  type: "object",
  required: ["versions"],
  properties: {
    $schema: { type: "string" },
    versions: {
      type: "object",
      description: "Map of version to version entry.",
      additionalProperties: { $ref: "#/$defs/version" },
    },
  },
  additionalProperties: false,
  $defs: {
    version: {
      type: "object",
      required: ["assets"],
      properties: {
        prerelease: { type: "boolean", description: "Pre-release flag." },
        assets: {
          type: "object",
          description: "Map of asset file name to asset value.",
          additionalProperties: { $ref: "#/$defs/asset" },
        },
      },
      additionalProperties: false,
    },
    asset: {
      oneOf: [
        { $ref: "#/$defs/url" },
        {
          type: "object",
          required: ["url", "sha256"],
          properties: {
            url: { $ref: "#/$defs/url" },
            sha256: {
              type: "string",
              description: "sha256 of the asset: bare hex or sha256:<hex>.",
              pattern: "^(sha256:)?[0-9a-fA-F]{64}$",
            },
          },
          additionalProperties: false,
        },
      ],
    },
    url: { type: "string", pattern: "^https?://[^\\s]+$", description: "http(s) URL of the asset." },
  },
} as const;
