import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { readSources } from "../../src/sources/read-sources.js";
import {
  catalogConfig,
  ocxIndexDir,
  pathSource,
  publishRoot,
  readJson,
  schemaFixtures,
} from "../support/source-fixtures.js";

const quiet = { warn: () => {} };

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error("expected a refusal");
}

describe("labels", () => {
  let temp: TempDir;
  let emptyIndex: string;
  beforeAll(async () => {
    temp = await tempDir("catalog-labels-");
    emptyIndex = join(temp.path, "empty");
    await mkdir(join(emptyIndex, "c"), { recursive: true });
    await writeFile(join(emptyIndex, "config.json"), '{"format_version":1}');
    await writeFile(join(emptyIndex, "c", "index.json"), '{"format_version":1,"packages":{}}');
  });
  afterAll(async () => {
    await temp?.remove();
  });

  it("derives the label from the package names, or takes an explicit one that restates it", async () => {
    const [derived, explicit] = await readSources(
      catalogConfig([pathSource(0, ocxIndexDir), pathSource(1, emptyIndex, "empty.example")]),
      quiet,
    );
    expect(derived?.label).toBe("ocx.sh");
    expect(explicit?.label).toBe("empty.example");
    expect(explicit?.packages).toEqual([]);
    const [restated] = await readSources(catalogConfig([pathSource(0, ocxIndexDir, "ocx.sh")]), quiet);
    expect(restated?.label).toBe("ocx.sh");
  });

  it("refuses an explicit label that renames the index: LABEL_PREFIX_MISMATCH", async () => {
    const error = await refusal(
      readSources(
        catalogConfig([pathSource(0, emptyIndex, "x.y"), pathSource(1, ocxIndexDir, "tools")]),
        quiet,
      ),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe("LABEL_PREFIX_MISMATCH");
    expect(error.exitCode).toBe(65);
    expect(error.keyPath).toBe("sources[1].label");
    expect(error.message).toBe(
      'LABEL_PREFIX_MISMATCH: sources[1].label: label "tools" does not match the first segment "ocx.sh" of the index\'s package names',
    );
  });

  it("refuses two sources ending with the same label: LABEL_CONFLICT", async () => {
    const error = await refusal(
      readSources(catalogConfig([pathSource(0, ocxIndexDir), pathSource(1, ocxIndexDir)]), quiet),
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.code).toBe("LABEL_CONFLICT");
    expect(error.message).toBe(
      'LABEL_CONFLICT: sources[1].label: label "ocx.sh" is already the label of sources[0]',
    );
  });

  it("refuses an index whose package names start with different labels", async () => {
    const mixed = join(temp.path, "mixed");
    await cp(emptyIndex, mixed, { recursive: true });
    const cmake = await readJson(join(schemaFixtures, "root-valid-kitware-cmake.json"));
    await mkdir(join(mixed, "p", "kitware"), { recursive: true });
    await mkdir(join(mixed, "p", "acme"), { recursive: true });
    await publishRoot(mixed, "kitware/cmake", JSON.stringify({ ...cmake, tags: {}, desc: null }));
    await publishRoot(
      mixed,
      "acme/tool",
      JSON.stringify({ ...cmake, name: "other.example/acme/tool", tags: {}, desc: null }),
    );
    const error = await refusal(readSources(catalogConfig([pathSource(0, mixed)]), quiet));
    expect(error.exitCode).toBe(65);
    expect(error.message).toBe(
      "sources[0]: the index's package names start with different labels (ocx.sh, other.example); one index has one label",
    );
    const explicit = await refusal(readSources(catalogConfig([pathSource(0, mixed, "ocx.sh")]), quiet));
    expect(explicit.code).toBe("LABEL_PREFIX_MISMATCH");
  });

  it("needs an explicit label for an index without packages", async () => {
    const error = await refusal(readSources(catalogConfig([pathSource(0, emptyIndex)]), quiet));
    expect(error.exitCode).toBe(65);
    expect(error.message).toBe(
      "sources[0]: the index has no packages to derive a label from; set sources[0].label",
    );
  });
});
