import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  parseCatalogIndex,
  parseImageIndex,
  parseIndexConfig,
  parsePackageRoot,
  rootFilePath,
  sha256Of,
} from "../src/index.js";
import { filesBelow, ocxIndexDir, readBytes } from "./support/fixtures.js";

describe("the real published index", () => {
  const files = filesBelow(ocxIndexDir);

  it("parses every file of its kind, and every root matches its c/index.json digest", () => {
    const config = parseIndexConfig(readBytes(join(ocxIndexDir, "config.json")), "config.json");
    const catalog = parseCatalogIndex(readBytes(join(ocxIndexDir, "c/index.json")), "c/index.json", {
      nameSegments: config.name_segments,
    });
    const paths = Object.keys(catalog.packages);
    expect(paths).toHaveLength(62);
    for (const path of paths) {
      const file = rootFilePath(path);
      const bytes = readBytes(join(ocxIndexDir, file));
      expect(sha256Of(bytes)).toBe(catalog.packages[path]);
      expect(parsePackageRoot(bytes, file).name).toBe(`ocx.sh/${path}`);
    }
    const objects = files.filter((f) => /\/o\/sha256\/[a-f0-9]{64}\.json$/.test(f));
    expect(objects.length).toBeGreaterThan(800);
    for (const file of objects) {
      const bytes = readBytes(join(ocxIndexDir, file));
      expect(sha256Of(bytes)).toBe(`sha256:${file.slice(-69, -5)}`);
      expect(parseImageIndex(bytes, file).schemaVersion).toBe(2);
    }
    expect(files.length).toBe(
      2 + paths.length + objects.length + files.filter((f) => /\.(md|svg|png)$/.test(f)).length,
    );
  });
});
