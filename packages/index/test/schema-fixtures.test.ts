import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import {
  IndexFormatError,
  parseCatalogIndex,
  parseImageIndex,
  parseIndexConfig,
  parsePackageRoot,
} from "../src/index.js";
import { filesBelow, schemaDir } from "./support/fixtures.js";

type Parse = (input: unknown, where: string) => unknown;

const kinds: { prefix: string; schema: string; parse: Parse }[] = [
  { prefix: "config-", schema: "config.schema.json", parse: parseIndexConfig },
  { prefix: "c-index-", schema: "c-index.schema.json", parse: parseCatalogIndex },
  { prefix: "root-", schema: "root.schema.json", parse: parsePackageRoot },
  { prefix: "image-index-", schema: "image-index.schema.json", parse: parseImageIndex },
];

// validateFormats off: ajv has no built-in "uri" format and no fixture turns on one.
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const validators = new Map<string, ValidateFunction>(
  kinds.map((kind) => [
    kind.prefix,
    ajv.compile(JSON.parse(readFileSync(join(schemaDir, kind.schema), "utf8"))),
  ]),
);

function kindOf(file: string) {
  const kind = kinds.find((k) => file.startsWith(k.prefix));
  if (kind === undefined) throw new Error(`no schema for ${file}`);
  return { ...kind, validate: validators.get(kind.prefix) as ValidateFunction };
}

const fixtureDir = join(schemaDir, "fixtures");
const valid = filesBelow(join(fixtureDir, "valid"));
const invalid = filesBelow(join(fixtureDir, "invalid")).filter((f) => f.endsWith(".json"));

describe("valid schema fixtures", () => {
  it("covers every kind", () => {
    for (const kind of kinds) expect(valid.some((f) => f.startsWith(kind.prefix))).toBe(true);
  });

  it.each(valid)("%s: ajv accepts it and so does the parser (format_version 2 aside)", (file) => {
    const bytes = readFileSync(join(fixtureDir, "valid", file));
    const kind = kindOf(file);
    expect(kind.validate(JSON.parse(bytes.toString("utf8")))).toBe(true);
    if (file === "config-valid-v2-higher-version.json") {
      expect(() => kind.parse(bytes, file)).toThrow(
        `${file}: format_version 2 is newer than this tool understands (1)`,
      );
      return;
    }
    expect(kind.parse(bytes, file)).toEqual(JSON.parse(bytes.toString("utf8")));
  });
});

describe("invalid schema fixtures", () => {
  it("lists a reason for every fixture", () => {
    const reasons = readFileSync(join(fixtureDir, "invalid", "expected-reasons.txt"), "utf8");
    for (const file of invalid) expect(reasons).toContain(`${file}|`);
  });

  it.each(invalid)("%s: ajv refuses it and so does the parser, exit 65", (file) => {
    const bytes = readFileSync(join(fixtureDir, "invalid", file));
    const kind = kindOf(file);
    expect(kind.validate(JSON.parse(bytes.toString("utf8")))).toBe(false);
    let error: unknown;
    try {
      kind.parse(bytes, file);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(IndexFormatError);
    const formatError = error as IndexFormatError;
    expect(formatError.exitCode).toBe(65);
    expect(formatError.message.startsWith(`${file}: $`)).toBe(true);
    expect(formatError.message).not.toContain("\n");
  });
});

describe("the one intended difference: the label", () => {
  const cmake = JSON.parse(
    readFileSync(join(fixtureDir, "valid", "root-valid-kitware-cmake.json"), "utf8"),
  ) as Record<string, unknown>;
  const validateRoot = validators.get("root-") as ValidateFunction;

  it("accepts any lowercase DNS-like label where the schema pins ocx.sh", () => {
    for (const label of ["example.org", "index", "a-b.c0"]) {
      const root = { ...cmake, name: `${label}/kitware/cmake` };
      expect(validateRoot(root)).toBe(false);
      expect(validateRoot.errors?.map((e) => e.instancePath)).toEqual(["/name"]);
      expect(parsePackageRoot(root, "root.json").name).toBe(`${label}/kitware/cmake`);
    }
  });

  it("refuses labels that are not lowercase DNS-like names", () => {
    for (const label of ["Example.org", "-x", "x-", "a..b", ".", "..", "a_b", ""]) {
      expect(() => parsePackageRoot({ ...cmake, name: `${label}/kitware/cmake` }, "root.json")).toThrow(
        "root.json: $.name: not a valid package name",
      );
    }
  });
});
