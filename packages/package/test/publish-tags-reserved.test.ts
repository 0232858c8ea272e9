import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, silentLogger } from "@pkg/common";
import { MediaType, openLayout } from "@pkg/oci";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultMetadata } from "../src/metadata/index.js";
import { parsePlatformKey, toOciPlatform } from "../src/platform/index.js";
import { publishTags, pushPackage } from "../src/push/index.js";

let work: TempDir;
beforeAll(async () => {
  work = await tempDir("pkg-reserved-");
});
afterAll(async () => {
  await work?.remove();
});

// pkg-mirror publishes through these two functions, not through the CLI
describe("the library's publishing paths refuse reserved tags too", () => {
  const platform = parsePlatformKey("linux/amd64");

  it("pushPackage, before any blob is written", async () => {
    const target = openLayout(join(work.path, "push"), "acme/tool");
    const pushing = pushPackage({
      target,
      tag: "__pkg.published",
      platform,
      layers: [],
      metadata: defaultMetadata(),
      cascade: false,
      annotations: {},
      log: silentLogger,
    });
    await expect(pushing).rejects.toMatchObject({ exitCode: ExitCode.Usage });
    expect(await readdir(work.path)).not.toContain("push");
  });

  it("publishTags, before any tag is written", async () => {
    const target = openLayout(join(work.path, "tags"), "acme/tool");
    const manifest = await target.pushManifest(Buffer.from("{}"), MediaType.ImageManifest);
    for (const tag of ["__pkg.desc", "__pkg.other"]) {
      const publishing = publishTags({
        target,
        tag,
        entries: [{ platform, entry: { ...manifest, platform: toOciPlatform(platform) } }],
        cascade: false,
        annotations: {},
        log: silentLogger,
      });
      await expect(publishing).rejects.toMatchObject({
        exitCode: ExitCode.Usage,
        message: expect.stringContaining(`tag ${tag} is reserved`),
      });
    }
    expect(await target.listTags()).toEqual([]);
  });
});
