import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parsePackageRoot, sha256Of } from "@pkg/index";
import { describe, expect, it } from "vitest";
import { readSources } from "../../src/sources/read-sources.js";
import { catalogConfig, ocxIndexDir, pathSource, readJson } from "./helpers.js";

describe("a path source on the real index", () => {
  it("reads all 62 packages with their image indexes, readmes and logos, every file verified", async () => {
    const warnings: string[] = [];
    const [index, ...rest] = await readSources(catalogConfig([pathSource(0, ocxIndexDir)]), {
      warn: (line) => warnings.push(line),
    });
    expect(rest).toEqual([]);
    if (index === undefined) throw new Error("no index");
    expect(warnings).toEqual([]);
    expect(index.warnings).toEqual([]);
    expect(index.label).toBe("ocx.sh");
    expect(index.sourceIndex).toBe(0);
    expect(index.config).toEqual({ format_version: 1, name_segments: 2 });

    const catalog = (await readJson(join(ocxIndexDir, "c/index.json"))).packages as Record<string, string>;
    expect(index.packages.map((p) => p.path)).toEqual(Object.keys(catalog).sort());
    for (const pkg of index.packages) {
      expect(pkg.name).toBe(`ocx.sh/${pkg.path}`);
      const rootBytes = await readFile(join(ocxIndexDir, "p", `${pkg.path}.json`));
      expect(pkg.root).toEqual(parsePackageRoot(rootBytes, "root"));
      const contents = new Set(Object.values(pkg.root.tags).map((t) => t.content));
      expect(new Set(pkg.imageIndexes.keys())).toEqual(contents);
      expect(pkg.readme).toBe(
        await readFile(
          join(ocxIndexDir, "p", pkg.path, "o/sha256", `${pkg.root.desc?.readme?.slice(7)}.md`),
          "utf8",
        ),
      );
      expect(pkg.logo?.digest).toBe(pkg.root.desc?.logo);
      expect(sha256Of(pkg.logo?.bytes ?? new Uint8Array())).toBe(pkg.root.desc?.logo);
    }
    expect(index.packages.filter((p) => p.logo?.ext === "png").map((p) => p.path)).toHaveLength(3);

    // Every mirrored file is the file on disk, byte for byte, under its index-relative path.
    expect(index.files.size).toBe(856);
    expect(index.files.has("config.json")).toBe(true);
    expect(index.files.has("c/index.json")).toBe(true);
    for (const [path, bytes] of index.files) {
      expect(Buffer.from(bytes).equals(await readFile(join(ocxIndexDir, path))), path).toBe(true);
    }
  });
});
