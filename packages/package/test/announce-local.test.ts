import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { sha256Of } from "@pkg/index";
import { createFsReader, DEFAULT_FILE_CONCURRENCY, walkIndex } from "@pkg/index/read";
import { type ImageManifest, MediaType, memoryBlob, openLayout } from "@pkg/oci";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AnnounceRequest,
  announce,
  createRegenerate,
  DescriptionAnnotation,
  LocalDirectoryDestination,
  type Regenerate,
} from "../src/announce/index.js";
import { DESCRIPTION_TAG, PackageMediaType } from "../src/media-types.js";
import { canonicalJson } from "../src/push/manifest.js";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

let work: TempDir;
let layout: string;
let counter = 0;
const NOW = new Date("2026-09-01T10:00:00Z");

const request = (pkg: string, extra: Partial<AnnounceRequest> = {}): AnnounceRequest => ({
  package: pkg,
  mode: { kind: "from-registry" },
  layout,
  repository: `oci://registry.example.org/${pkg}`,
  label: "example.org",
  owners: [{ github: "alice", github_id: 7 }],
  now: NOW,
  ...extra,
});
const freshDir = () => join(work.path, `index-${counter++}`);

async function pkg(args: string[]): Promise<void> {
  const result = await runPkg(args);
  expect(result.code, result.stderr).toBe(0);
}

beforeAll(async () => {
  work = await tempDir("pkg-announce-local-");
  layout = join(work.path, "layout");
  await writeSampleTree(join(work.path, "tree"));
  const bundle = join(work.path, "tool.tar.zst");
  await pkg(["package", "create", join(work.path, "tree"), "-o", bundle]);
  for (const repo of ["acme/tool", "acme/other", "acme/plain"]) {
    await pkg([
      "package",
      "push",
      "--layout",
      layout,
      "-i",
      `${repo}:1.0.0`,
      "-p",
      "linux/amd64",
      "--cascade",
      bundle,
    ]);
  }
  await writeFile(join(work.path, "README.md"), "# Other\n\nThe other tool.\n");
  await pkg([
    "package",
    "describe",
    "--layout",
    layout,
    "acme/other",
    "--readme",
    join(work.path, "README.md"),
  ]);
});
afterAll(async () => {
  await work?.remove();
});

describe("announce into a local directory", () => {
  it("notices another announce that landed first and computes its change again", async () => {
    const dir = freshDir();
    const destination = new LocalDirectoryDestination(dir);
    const regenerate = createRegenerate(request("acme/tool"), destination);
    let calls = 0;
    const racing: Regenerate = async (read) => {
      calls++;
      const change = await regenerate(read);
      // another writer finishes between this change being computed and written
      if (calls === 1)
        expect((await announce(request("acme/other"), new LocalDirectoryDestination(dir))).status).toBe(
          "updated",
        );
      return change;
    };
    const result = await destination.publish(racing, "announce: acme/tool");
    expect(calls).toBe(2);
    expect(result.status).toBe("updated");
    expect(result.writtenPaths).toContain("c/index.json");
    expect(result.writtenPaths).not.toContain("config.json");
    const catalog = JSON.parse(await readFile(join(dir, "c/index.json"), "utf8")) as { packages: object };
    expect(Object.keys(catalog.packages)).toEqual(["acme/other", "acme/tool"]);
    const walked = await walkIndex(await createFsReader(dir), {
      source: "t",
      concurrency: DEFAULT_FILE_CONCURRENCY,
    });
    expect(walked.warnings).toEqual([]);
    expect(walked.packages.map((p) => p.pkg.path)).toEqual(["acme/other", "acme/tool"]);
  });

  it("takes a second package's label from the index's first one, and reports what it did", async () => {
    const dir = freshDir();
    await announce(request("acme/tool"), new LocalDirectoryDestination(dir));
    const report = await announce(
      request("acme/other", { label: undefined }),
      new LocalDirectoryDestination(dir),
    );
    const tags = ["1", "1.0", "1.0.0", "latest"];
    expect({ ...report, tags: [...report.tags].sort(), changedTags: [...report.changedTags].sort() }).toEqual(
      {
        package: "acme/other",
        destination: dir,
        status: "updated",
        requestUrl: null,
        requestNumber: null,
        tags,
        changedTags: tags,
        reservedTagsDropped: [DESCRIPTION_TAG],
        descStatus: "updated",
        writtenPaths: report.writtenPaths,
      },
    );
    expect(report.writtenPaths.filter((p) => !p.includes("/o/"))).toEqual([
      "p/acme/other.json",
      "c/index.json",
    ]);
    const root = JSON.parse(await readFile(join(dir, "p/acme/other.json"), "utf8")) as Record<
      string,
      unknown
    >;
    expect(root.name).toBe("example.org/acme/other");
    expect(root.desc).toMatchObject({ title: "Other", description: "The other tool.", keywords: [] });
  });

  it("refuses (65) a c/index.json that is not an index document, before anything else", async () => {
    const dir = freshDir();
    await mkdir(join(dir, "c"), { recursive: true });
    await writeFile(join(dir, "c/index.json"), "{not json");
    await expect(
      announce(request("acme/tool", { label: undefined }), new LocalDirectoryDestination(dir)),
    ).rejects.toMatchObject({
      exitCode: 65,
      message: expect.stringMatching(/c\/index\.json: not valid JSON/),
    });
  });

  it("reads title, description and keywords from the description's annotations", async () => {
    const target = openLayout(layout, "acme/plain");
    const readme = memoryBlob(Buffer.from("# Ignored\n\nAlso ignored.\n"));
    const config = memoryBlob(Buffer.from("{}"));
    await target.pushBlob(readme);
    await target.pushBlob(config);
    const manifest: ImageManifest = {
      schemaVersion: 2,
      mediaType: MediaType.ImageManifest,
      artifactType: PackageMediaType.DescriptionArtifact,
      config: { mediaType: MediaType.EmptyJson, digest: config.digest, size: config.size },
      layers: [{ mediaType: PackageMediaType.Readme, digest: readme.digest, size: readme.size }],
      annotations: {
        [DescriptionAnnotation.Title]: "Plain",
        [DescriptionAnnotation.Description]: "A plain tool.",
        [DescriptionAnnotation.Keywords]: "plain,tools",
      },
    };
    const bytes = canonicalJson(manifest);
    await target.pushManifest(bytes, MediaType.ImageManifest, DESCRIPTION_TAG);
    const dir = freshDir();
    await announce(request("acme/plain"), new LocalDirectoryDestination(dir));
    const root = JSON.parse(await readFile(join(dir, "p/acme/plain.json"), "utf8")) as { desc: object };
    expect(root.desc).toEqual({
      digest: sha256Of(bytes),
      title: "Plain",
      description: "A plain tool.",
      keywords: ["plain", "tools"],
      readme: readme.digest,
    });
  });

  it("refuses (65) when the description the index records is gone from the registry", async () => {
    const dir = freshDir();
    await announce(request("acme/other"), new LocalDirectoryDestination(dir));
    const other = join(work.path, "layout-gone");
    await pkg([
      "package",
      "push",
      "--layout",
      other,
      "-i",
      "acme/other:1.0.0",
      "-p",
      "linux/amd64",
      "--cascade",
      join(work.path, "tool.tar.zst"),
    ]);
    await expect(
      announce(
        request("acme/other", { layout: other, mode: { kind: "refresh" } }),
        new LocalDirectoryDestination(dir),
      ),
    ).rejects.toMatchObject({ exitCode: 65 });
    await expect(
      announce(
        request("acme/other", { layout: other, mode: { kind: "refresh" } }),
        new LocalDirectoryDestination(dir),
      ),
    ).rejects.toThrow(
      /: the description the index records \(sha256:[0-9a-f]{64}\) is gone from the registry/,
    );
  });

  it("refuses (65) a tag that names an image manifest rather than an image index, writing nothing", async () => {
    const target = openLayout(layout, "acme/tool");
    const config = memoryBlob(Buffer.from("{}"));
    await target.pushBlob(config);
    const single = canonicalJson({
      schemaVersion: 2,
      mediaType: MediaType.ImageManifest,
      config: { mediaType: MediaType.EmptyJson, digest: config.digest, size: config.size },
      layers: [],
    });
    await target.pushManifest(single, MediaType.ImageManifest, "single");
    const dir = freshDir();
    await expect(
      announce(
        request("acme/tool", { mode: { kind: "tags", tags: ["single"] } }),
        new LocalDirectoryDestination(dir),
      ),
    ).rejects.toMatchObject({
      exitCode: 65,
      message: expect.stringContaining("single: an image manifest, not an image index"),
    });
    await target.untag("single");
  });
});
