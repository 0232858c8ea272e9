import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256Of } from "@pkg/index";
import { tempDir } from "@pkg/testkit";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { filesUnder } from "./file-tree.js";
import { writeSyntheticIndex } from "./synthetic-index.js";

const schemaDir = new URL("../../../../../shared/fixtures/index-schema/", import.meta.url);
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
const schema = async (name: string) =>
  ajv.compile(JSON.parse(await readFile(new URL(name, schemaDir), "utf8")) as object);

describe("writeSyntheticIndex", () => {
  it("writes an index every file of which validates and matches its digest", async () => {
    const dir = await tempDir("synthetic-");
    try {
      const made = await writeSyntheticIndex(dir.path, { packages: 60, label: "ocx.sh", readmeBytes: 3_000 });
      const [config, cIndex, root, image] = await Promise.all(
        ["config", "c-index", "root", "image-index"].map((n) => schema(`${n}.schema.json`)),
      );
      const read = (path: string) => readFile(join(dir.path, path));
      expect(config?.(JSON.parse((await read("config.json")).toString()))).toBe(true);
      const catalog = JSON.parse((await read("c/index.json")).toString()) as {
        packages: Record<string, string>;
      };
      expect(cIndex?.(catalog), JSON.stringify(cIndex?.errors)).toBe(true);
      expect(Object.keys(catalog.packages)).toEqual(made.packages.map((p) => p.path));

      const files = await filesUnder(dir.path);
      expect(files.length).toBe(made.files);
      for (const path of files.filter((f) => f.startsWith("p/"))) {
        const bytes = await read(path);
        const object = /\/o\/sha256\/([0-9a-f]{64})\.(json|md|svg|png)$/.exec(path);
        if (object) {
          expect(sha256Of(bytes), path).toBe(`sha256:${object[1]}`);
          if (object[2] === "json") expect(image?.(JSON.parse(bytes.toString())), path).toBe(true);
          if (object[2] === "md") expect(bytes.length, path).toBe(3_000);
          continue;
        }
        const key = path.slice(2, -".json".length);
        expect(catalog.packages[key], path).toBe(sha256Of(bytes));
        expect(root?.(JSON.parse(bytes.toString())), `${path} ${JSON.stringify(root?.errors)}`).toBe(true);
      }
      const statuses = new Set(made.packages.map((p) => p.status));
      expect([...statuses].sort()).toEqual(["active", "deprecated", "yanked"]);
      expect(made.packages.filter((p) => p.hasLogo).length).toBe(20);
      expect(files.some((f) => f.endsWith(".svg")) && files.some((f) => f.endsWith(".png"))).toBe(true);
    } finally {
      await dir.remove();
    }
  });

  it("is deterministic by seed, with READMEs of headings, lists, code, links and tables", async () => {
    const [a, b, c] = await Promise.all([
      tempDir("synthetic-a-"),
      tempDir("synthetic-b-"),
      tempDir("synthetic-c-"),
    ]);
    try {
      await writeSyntheticIndex(a.path, { packages: 30, seed: 7, readmeBytes: 20_000 });
      await writeSyntheticIndex(b.path, { packages: 30, seed: 7, readmeBytes: 20_000 });
      await writeSyntheticIndex(c.path, { packages: 30, seed: 8, readmeBytes: 20_000 });
      const index = (d: string) => readFile(join(d, "c/index.json"), "utf8");
      expect(await index(a.path)).toBe(await index(b.path));
      expect(await index(a.path)).not.toBe(await index(c.path));
      const readmes = (await filesUnder(a.path)).filter((f) => f.endsWith(".md"));
      const readme = await readFile(join(a.path, readmes[0] ?? ""), "utf8");
      expect(readme.length).toBe(20_000);
      expect(readme).toMatch(/^# /);
      expect(readme).toMatch(/^## /m);
      expect(readme).toMatch(/^- /m);
      expect(readme).toMatch(/^```/m);
      expect(readme).toMatch(/\]\(https:\/\//);
      expect(readme).toMatch(/^\|---\|/m);
    } finally {
      await Promise.all([a.remove(), b.remove(), c.remove()]);
    }
  });

  it("takes a README and logo override per package", async () => {
    const dir = await tempDir("synthetic-override-");
    try {
      const made = await writeSyntheticIndex(dir.path, {
        packages: 2,
        readmeOf: (i) => (i === 1 ? "<script>x()</script>\n" : undefined),
        logoOf: (i) => (i === 1 ? { ext: "svg", bytes: Buffer.from("<svg/>") } : undefined),
      });
      const files = await filesUnder(dir.path);
      const own = files.filter((f) => f.startsWith(`p/${made.packages[1]?.path}/`));
      const contents = await Promise.all(own.map((f) => readFile(join(dir.path, f), "utf8")));
      expect(contents).toContain("<script>x()</script>\n");
      expect(contents).toContain("<svg/>");
      expect(made.packages[1]?.hasLogo).toBe(true);
    } finally {
      await dir.remove();
    }
  });
});
