import { readFileSync } from "node:fs";
import { mkdir, readdir, readFile, stat, symlink } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { objectFilePath, rootFilePath, sha256Of } from "../src/index.js";
import {
  type ObservedDescription,
  planPackageWrite,
  type ReadIndexFile,
  readIndexState,
  writeIndexFiles,
} from "../src/write/index.js";
import { copyIndex, filesBelow, ocxIndexDir, walkDirectory } from "./support/fixtures.js";
import { schemaErrors } from "./support/schemas.js";

const NOW = new Date("2026-09-01T08:00:00Z");
const LATER = new Date("2026-09-02T09:30:00Z");
let temp: TempDir;
let counter = 0;
const freshDir = () => join(temp.path, `index-${counter++}`);

beforeAll(async () => {
  temp = await tempDir("index-write-");
});
afterAll(async () => {
  await temp?.remove();
});

const dirReader =
  (dir: string): ReadIndexFile =>
  async (path) =>
    readFile(join(dir, path)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });

function imageIndex(n: number): Uint8Array {
  return Buffer.from(
    `${JSON.stringify({
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.index.v1+json",
      manifests: [
        {
          mediaType: "application/vnd.oci.image.manifest.v1+json",
          digest: `sha256:${n.toString(16).padStart(64, "0")}`,
          size: 100 + n,
          platform: { architecture: "amd64", os: "linux" },
        },
      ],
    })}`,
  );
}

const README = Buffer.from("# Tool\n\nA tool \u2014 for tests.\n");
const LOGO = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
const DESCRIPTION: ObservedDescription = {
  digest: sha256Of(Buffer.from("desc manifest")),
  title: "Tool",
  description: "A tool \u2014 for tests.",
  keywords: ["tests"],
  readme: README,
  logo: { bytes: LOGO, ext: "svg" },
};
const NEW_ROOT = {
  name: "example.org/acme/tool",
  repository: "oci://registry.example.org/acme/tool",
  owners: [{ github: "alice", github_id: 7 }],
};

async function announceInto(
  dir: string,
  observed: { tag: string; bytes: Uint8Array }[],
  now = NOW,
  mode: "merge" | "replace" = "merge",
) {
  await mkdir(dir, { recursive: true });
  const state = await readIndexState(dirReader(dir), "acme/tool", { keepsCatalogIndex: true });
  const write = planPackageWrite({ state, newRoot: NEW_ROOT, mode, observed, description: DESCRIPTION, now });
  const written = await writeIndexFiles(dir, write.files);
  return { write, written };
}

async function snapshot(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const file of filesBelow(dir)) {
    const info = await stat(join(dir, file));
    out.set(file, `${sha256Of(readFileSync(join(dir, file)))} ${info.mtimeMs} ${info.ino}`);
  }
  return out;
}

describe("writing a package into an index directory", () => {
  it("writes what the reader reads back whole, every file valid, no temporary file left", async () => {
    const dir = freshDir();
    const { write, written } = await announceInto(dir, [
      { tag: "1.0.0", bytes: imageIndex(1) },
      { tag: "1.0", bytes: imageIndex(1) },
      { tag: "__pkg.desc", bytes: Buffer.from("{}") },
    ]);
    expect(write.status).toBe("updated");
    expect(write.reservedTagsDropped).toEqual(["__pkg.desc"]);
    const objects = [
      objectFilePath("acme/tool", sha256Of(LOGO), "svg"),
      objectFilePath("acme/tool", sha256Of(README), "md"),
      objectFilePath("acme/tool", sha256Of(imageIndex(1)), "json"),
    ].sort();
    expect(written).toEqual([...objects, rootFilePath("acme/tool"), "config.json", "c/index.json"]);
    expect(filesBelow(dir)).toEqual([...written].sort());
    for (const file of written) expect(schemaErrors(file, readFileSync(join(dir, file))), file).toEqual([]);

    const walked = await walkDirectory(dir);
    expect(walked.warnings).toEqual([]);
    expect(walked.packages).toHaveLength(1);
    const [{ pkg, label }] = walked.packages as [(typeof walked.packages)[number]];
    expect(label).toBe("example.org");
    expect(pkg.root.tags["1.0"]?.content).toBe(pkg.root.tags["1.0.0"]?.content);
    expect(pkg.imageIndexes.size).toBe(1);
    expect(pkg.readme).toBe(README.toString("utf8"));
    expect(Buffer.from(pkg.logo?.bytes ?? []).equals(LOGO)).toBe(true);
  });

  it("changes no byte when run again with the same inputs, even later", async () => {
    const dir = freshDir();
    const observed = [{ tag: "1.0.0", bytes: imageIndex(1) }];
    await announceInto(dir, observed);
    const before = await snapshot(dir);
    const again = await announceInto(dir, observed, LATER);
    expect(again.write.status).toBe("unchanged");
    expect(again.written).toEqual([]);
    expect(await snapshot(dir)).toEqual(before);
  });

  it("a moved tag and a new one rewrite the root, the new object and c/index.json only", async () => {
    const dir = freshDir();
    await announceInto(dir, [
      { tag: "1.0.0", bytes: imageIndex(1) },
      { tag: "latest", bytes: imageIndex(1) },
    ]);
    const { write, written } = await announceInto(
      dir,
      [
        { tag: "1.1.0", bytes: imageIndex(2) },
        { tag: "latest", bytes: imageIndex(2) },
      ],
      LATER,
    );
    expect(written).toEqual([
      objectFilePath("acme/tool", sha256Of(imageIndex(2)), "json"),
      "p/acme/tool.json",
      "c/index.json",
    ]);
    expect(write.changedTags).toEqual(["latest", "1.1.0"]);
    expect(Object.keys(write.root.tags)).toEqual(["1.0.0", "latest", "1.1.0"]);
    expect(write.root.tags["1.0.0"]?.observed).toBe("2026-09-01T08:00:00Z");
    expect(write.root.tags.latest?.observed).toBe("2026-09-02T09:30:00Z");
    expect((await walkDirectory(dir)).warnings).toEqual([]);
  });

  it("joins the real published index without disturbing any of its 62 packages", async () => {
    const dir = await copyIndex(freshDir());
    const before = new Map(filesBelow(dir).map((f) => [f, sha256Of(readFileSync(join(dir, f)))]));
    const state = await readIndexState(dirReader(dir), "actionlint/actionlint", { keepsCatalogIndex: true });
    const committed = state.committed?.root;
    if (committed === undefined) throw new Error("actionlint missing from the fixture");
    const observed = Object.entries(committed.tags).map(([tag, entry]) => ({
      tag,
      bytes: readFileSync(join(dir, objectFilePath("actionlint/actionlint", entry.content, "json"))),
    }));
    const unchanged = planPackageWrite({ state, mode: "merge", observed, description: null, now: LATER });
    // The committed desc is the bot's; announcing no description drops it: only the root and c/index.json move.
    expect([...unchanged.files.keys()]).toEqual(["p/actionlint/actionlint.json", "c/index.json"]);

    await announceInto(dir, [{ tag: "1.0.0", bytes: imageIndex(1) }]);
    const walked = await walkDirectory(dir);
    expect(walked.warnings).toEqual([]);
    expect(walked.packages.map((p) => p.pkg.path)).toHaveLength(63);
    for (const [file, digest] of before) {
      if (file !== "c/index.json") expect(sha256Of(readFileSync(join(dir, file))), file).toBe(digest);
    }
    const catalog = JSON.parse(readFileSync(join(dir, "c/index.json"), "utf8")) as { packages: object };
    const original = JSON.parse(readFileSync(join(ocxIndexDir, "c/index.json"), "utf8")) as {
      packages: object;
    };
    expect(catalog.packages).toMatchObject(original.packages);
  });

  it("re-observing a real package's tags as they are, with its description, writes nothing", async () => {
    const dir = await copyIndex(freshDir());
    const state = await readIndexState(dirReader(dir), "actionlint/actionlint", { keepsCatalogIndex: true });
    const root = state.committed?.root;
    if (root?.desc == null) throw new Error("actionlint has a description in the fixture");
    const observed = Object.entries(root.tags).map(([tag, entry]) => ({
      tag,
      bytes: readFileSync(join(dir, objectFilePath("actionlint/actionlint", entry.content, "json"))),
    }));
    const { digest, title, description, keywords } = root.desc;
    const write = planPackageWrite({
      state,
      mode: "replace",
      observed,
      description: {
        digest,
        title,
        description: description ?? "",
        keywords: keywords ?? [],
        readme: readFileSync(
          join(dir, objectFilePath("actionlint/actionlint", root.desc.readme as string, "md")),
        ),
        logo: {
          bytes: readFileSync(
            join(dir, objectFilePath("actionlint/actionlint", root.desc.logo as string, "svg")),
          ),
          ext: "svg",
        },
      },
      now: LATER,
    });
    expect(write.status).toBe("unchanged");
    expect(write.descStatus).toBe("unchanged");
    expect(write.files.size).toBe(0);
  });

  it("refuses a directory inside the index that leads out of it", async () => {
    const dir = freshDir();
    const outside = freshDir();
    await mkdir(join(dir, "p"), { recursive: true });
    await mkdir(outside, { recursive: true });
    await symlink(outside, join(dir, "p", "acme"));
    await expect(writeIndexFiles(dir, new Map([["p/acme/tool.json", Buffer.from("{}")]]))).rejects.toThrow(
      "its directory leads outside",
    );
    expect(await readdir(outside)).toEqual([]);
  });

  it("refuses paths that are not plain relative index paths", async () => {
    for (const bad of ["../x.json", "/abs.json", "p//x.json", "p/./x.json", "p\\x.json", ""]) {
      await expect(writeIndexFiles(freshDir(), new Map([[bad, Buffer.from("")]])), bad).rejects.toThrow(
        TypeError,
      );
    }
  });
});
