import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { IndexFormatError, parseCatalogIndex, parsePackageRoot, sha256Of } from "../src/index.js";
import {
  buildPackageRoot,
  CATALOG_INDEX_PATH,
  CONFIG_PATH,
  planPackageWrite,
  readCommittedRoot,
  readIndexState,
  updateCatalogIndex,
} from "../src/write/index.js";
import { filesBelow, schemaDir } from "./support/fixtures.js";
import { schemaErrors, schemaValidator } from "./support/schemas.js";

const NOW = new Date("2026-09-01T08:00:00Z");
const fixtureDir = join(schemaDir, "fixtures");
const valid = filesBelow(join(fixtureDir, "valid"));
const invalid = filesBelow(join(fixtureDir, "invalid")).filter((f) => f.endsWith(".json"));
const read = (kind: "valid" | "invalid", file: string) => readFileSync(join(fixtureDir, kind, file));
const json = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString("utf8")) as unknown;
const NEW_ROOT = {
  name: "ocx.sh/acme/tool",
  repository: "oci://registry.example.org/acme/tool",
  owners: [{ github: "alice", github_id: 7 }],
};

/** What the writer makes of an index holding exactly `files`, announcing `observed` for acme/tool. */
async function writeWith(files: Record<string, Uint8Array>, observed: { tag: string; bytes: Uint8Array }[]) {
  const state = await readIndexState(async (path) => files[path], "acme/tool", { keepsCatalogIndex: true });
  return planPackageWrite({ state, newRoot: NEW_ROOT, mode: "merge", observed, description: null, now: NOW });
}

function expectExit65(run: () => unknown, file: string): void {
  let error: unknown;
  try {
    run();
  } catch (caught) {
    error = caught;
  }
  expect(error, file).toBeInstanceOf(IndexFormatError);
  expect((error as IndexFormatError).exitCode).toBe(65);
}

describe("the schemas' valid root fixtures through the writer", () => {
  const roots = valid.filter((f) => f.startsWith("root-"));

  it.each(roots)("%s: re-observed as it is, then with a tag added; each result validates", (file) => {
    const committed = readCommittedRoot(read("valid", file), file);
    const observed = Object.entries(committed.root.tags).map(([tag, e]) => ({ tag, content: e.content }));
    const same = buildPackageRoot({
      committed,
      mode: "merge",
      observed,
      desc: committed.root.desc,
      now: NOW,
    });
    expect(schemaErrors("p/x/y.json", same.bytes)).toEqual([]);
    expect(json(same.bytes)).toEqual(json(read("valid", file)));
    expect(Object.keys(json(same.bytes) as object)).toEqual(Object.keys(json(read("valid", file)) as object));

    const added = buildPackageRoot({
      committed,
      mode: "merge",
      observed: [{ tag: "9.9.9", content: sha256Of(Buffer.from("x")) }],
      desc: committed.root.desc,
      now: NOW,
    });
    expect(schemaErrors("p/x/y.json", added.bytes)).toEqual([]);
    const reread = parsePackageRoot(added.bytes, file);
    expect(reread.tags["9.9.9"]).toEqual({
      content: sha256Of(Buffer.from("x")),
      observed: "2026-09-01T08:00:00Z",
    });
    const { tags: _a, ...governance } = reread;
    const { tags: _b, ...before } = committed.root;
    expect(governance).toEqual(before);
  });
});

describe("the schemas' invalid fixtures are refused where the writer meets them (exit 65)", () => {
  it.each(invalid.filter((f) => f.startsWith("root-")))("%s as the committed root", (file) => {
    expect(schemaValidator("root")(json(read("invalid", file)))).toBe(false);
    expectExit65(() => readCommittedRoot(read("invalid", file), file), file);
  });

  it.each(invalid.filter((f) => f.startsWith("image-index-")))("%s as a tag's image index", async (file) => {
    await expect(writeWith({}, [{ tag: "1.0.0", bytes: read("invalid", file) }])).rejects.toBeInstanceOf(
      IndexFormatError,
    );
  });

  it.each(invalid.filter((f) => f.startsWith("config-")))("%s as the index's config.json", async (file) => {
    await expect(writeWith({ [CONFIG_PATH]: read("invalid", file) }, [])).rejects.toMatchObject({
      exitCode: 65,
    });
  });

  it.each(invalid.filter((f) => f.startsWith("c-index-")))("%s as the index's c/index.json", (file) => {
    expectExit65(
      () => updateCatalogIndex(read("invalid", file), file, "acme/tool", sha256Of(Buffer.from(""))),
      file,
    );
  });
});

describe("the schemas' valid fixtures of the other kinds through the writer", () => {
  it.each(valid.filter((f) => f.startsWith("image-index-")))(
    "%s is stored verbatim under its digest",
    async (file) => {
      const bytes = read("valid", file);
      const write = await writeWith({}, [{ tag: "1.0.0", bytes }]);
      const path = `p/acme/tool/o/sha256/${sha256Of(bytes).slice(7)}.json`;
      expect(Buffer.from(write.files.get(path) as Uint8Array).equals(bytes)).toBe(true);
      for (const [relPath, written] of write.files) expect(schemaErrors(relPath, written)).toEqual([]);
    },
  );

  it.each(valid.filter((f) => f.startsWith("c-index-")))("%s gains the package and stays valid", (file) => {
    const before = parseCatalogIndex(read("valid", file), file);
    const digest = sha256Of(Buffer.from("root"));
    const after = updateCatalogIndex(read("valid", file), file, "acme/tool", digest);
    expect(schemaErrors(CATALOG_INDEX_PATH, after)).toEqual([]);
    expect(parseCatalogIndex(after, "after").packages).toEqual({ ...before.packages, "acme/tool": digest });
    expect(Object.keys(parseCatalogIndex(after, "after").packages)).toEqual(
      Object.keys({ ...before.packages, "acme/tool": digest }).sort(),
    );
  });

  it.each(valid.filter((f) => f.startsWith("config-")))("%s is read, and kept as it is", async (file) => {
    const files = { [CONFIG_PATH]: read("valid", file) };
    if (file === "config-valid-v2-higher-version.json") {
      await expect(writeWith(files, [])).rejects.toThrow(
        "format_version 2 is newer than this tool understands",
      );
      return;
    }
    const write = await writeWith(files, []);
    expect(write.files.has(CONFIG_PATH)).toBe(false);
    expect([...write.files.keys()]).toEqual(["p/acme/tool.json", CATALOG_INDEX_PATH]);
  });

  it("a new index gets a config.json, a root and a c/index.json that all validate", async () => {
    const imageIndex = read("valid", "image-index-valid-multi-platform-open-fields.json");
    const write = await writeWith({}, [
      { tag: "1.0.0", bytes: imageIndex },
      { tag: "latest", bytes: imageIndex },
    ]);
    expect([...write.files.keys()]).toEqual([
      `p/acme/tool/o/sha256/${sha256Of(imageIndex).slice(7)}.json`,
      "p/acme/tool.json",
      CONFIG_PATH,
      CATALOG_INDEX_PATH,
    ]);
    for (const [relPath, bytes] of write.files) expect(schemaErrors(relPath, bytes)).toEqual([]);
  });
});
