import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { ciPackageManager } from "../../src/config/ci.js";
import { ConfigError } from "../../src/config/errors.js";
import { parseCatalogConfig } from "../../src/config/parse.js";
import { type ConformanceCase, config, SCHEMA_TABLE, type SchemaItem } from "../support/config-case.js";
import { conformanceCases } from "./conformance.cases.js";

/*
 * The published schema against the loader, over every JSON row of the conformance table: where
 * catalog-config.md says they agree they must agree, and every row of its "Schema versus loader
 * differences" table is proven by rows the schema accepts and the loader refuses.
 */

const schemaUrl = new URL("../../schema/catalog.config.schema.json", import.meta.url);
const schema = JSON.parse(readFileSync(schemaUrl, "utf8")) as Record<string, unknown>;
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(schema);

// parseCatalogConfig only does path arithmetic, so the rows are judged in memory: no file is read
const file = "/srv/catalog/catalog.config.json";

function loaderVerdict(json: unknown): { accepted: true } | { accepted: false; error: ConfigError } {
  try {
    parseCatalogConfig(json, file);
    return { accepted: true };
  } catch (error) {
    if (error instanceof ConfigError) return { accepted: false, error };
    throw error;
  }
}

const jsonRows = conformanceCases.filter(
  (row): row is ConformanceCase & { input: { json: unknown } } => "json" in row.input,
);

describe("the published schema file", () => {
  it("is a valid draft 2020-12 schema with its $id, compiled in strict mode", () => {
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.$id).toBe("https://schemas.pkg-tools.dev/catalog.config.schema.json");
    expect(ajv.validateSchema(schema)).toBe(true);
  });

  it("is what the package exports as ./schema", () => {
    const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
      exports: Record<string, unknown>;
      files: string[];
    };
    expect(manifest.exports["./schema"]).toBe("./schema/catalog.config.schema.json");
    expect(manifest.files).toContain("schema");
  });
});

describe("schema and loader over the conformance rows", () => {
  for (const row of jsonRows) {
    it(row.rule, () => {
      const loader = loaderVerdict(row.input.json);
      const schemaAccepts = validate(row.input.json);
      const relation = row.schema;
      if (relation && "accepts" in relation) {
        expect(SCHEMA_TABLE[relation.accepts]).toBe("differs");
        expect(schemaAccepts, "the schema should accept this row").toBe(true);
        expect(loader.accepted, "the loader should refuse this row").toBe(false);
      } else if (relation && "beyond" in relation) {
        expect(loader.accepted).toBe(false);
        expect(schemaAccepts).toBe(true);
      } else {
        if (relation) expect(SCHEMA_TABLE[relation.agrees]).toBe("agrees");
        const errors = JSON.stringify(validate.errors ?? []);
        const reason = loader.accepted ? "" : loader.error.message;
        expect(schemaAccepts, `schema ${errors} / loader ${reason}`).toBe(loader.accepted);
      }
    });
  }
});

describe("every row of the spec's differences table is proven", () => {
  const tagged = (item: SchemaItem, kind: "accepts" | "agrees") =>
    jsonRows.filter((row) => row.schema && kind in row.schema && Object.values(row.schema).includes(item));

  for (const [item, verdict] of Object.entries(SCHEMA_TABLE) as [SchemaItem, string][]) {
    if (item === "ci.packageManager default") continue;
    it(`${item}: ${verdict}`, () => {
      if (verdict === "differs") {
        expect(tagged(item, "accepts").length).toBeGreaterThan(0);
      } else {
        const rows = tagged(item, "agrees");
        expect(rows.some((row) => "accepted" in row.expect)).toBe(true);
        expect(rows.some((row) => "refused" in row.expect)).toBe(true);
      }
    });
  }

  it("ci.packageManager default: the schema declares npm, the loader does not apply it", () => {
    const ci = (schema.$defs as Record<string, { properties: Record<string, { default?: unknown }> }>).ci;
    expect(ci?.properties.packageManager?.default).toBe("npm");

    const github = config({ ci: { forge: "github" } });
    const withDefaults = new Ajv2020({ strict: true, useDefaults: true }).compile(schema);
    const filled = structuredClone(github);
    expect(withDefaults(filled)).toBe(true);
    expect(filled).toMatchObject({ ci: { packageManager: "npm" } });

    const parsed = parseCatalogConfig(structuredClone(github), file);
    expect(parsed.ci && Object.hasOwn(parsed.ci, "packageManager")).toBe(false);
    expect(parsed.ci && ciPackageManager(parsed.ci)).toBe("npm");
  });

  it("sources[].url: the pattern is anchored at the start only, the loader parses", () => {
    const row = config({ sources: [{ url: "https://exa mple.com" }] });
    expect(validate(row)).toBe(true);
    expect(loaderVerdict(row).accepted).toBe(false);
  });
});
