import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parsePackageRoot, sha256Of } from "../src/index.js";
import { ocxIndexDir, readJson, walkDirectory } from "./support/fixtures.js";

describe("walking the real index on disk", () => {
  it("reads all 62 packages with their image indexes, readmes and logos, every file verified", async () => {
    const index = await walkDirectory(ocxIndexDir);
    expect(index.warnings).toEqual([]);
    expect(index.config).toEqual({ format_version: 1, name_segments: 2 });
    expect(new Set(index.packages.map((p) => p.label))).toEqual(new Set(["ocx.sh"]));

    const catalog = (await readJson(join(ocxIndexDir, "c/index.json"))).packages as Record<string, string>;
    const packages = index.packages.map((p) => p.pkg);
    expect(packages.map((p) => p.path)).toEqual(Object.keys(catalog).sort());
    for (const pkg of packages) {
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
    expect(packages.filter((p) => p.logo?.ext === "png").map((p) => p.path)).toHaveLength(3);

    // Every file read is the file on disk, byte for byte, under its index-relative path.
    expect(index.files.size).toBe(856);
    expect(index.files.has("config.json")).toBe(true);
    expect(index.files.has("c/index.json")).toBe(true);
    for (const [path, bytes] of index.files) {
      expect(Buffer.from(bytes).equals(await readFile(join(ocxIndexDir, path))), path).toBe(true);
    }
  });
});
