import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { defaultMetadata } from "@pkg/package";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MetadataPaths } from "../../spec/metadata.js";
import { selectMetadata } from "./select-metadata.js";
import { type ContentKeys, contentSettings } from "./settings.js";

describe("contentSettings", () => {
  const top: ContentKeys = {
    metadata: { default: "top.json", platforms: {} },
    bin_scan: "auto",
    libc_lint: true,
  };
  const cases: Array<[string, ContentKeys, ContentKeys | undefined, ReturnType<typeof contentSettings>]> = [
    [
      "no variant: the top-level values",
      top,
      undefined,
      { metadata: top.metadata, binScan: "auto", libcLint: true },
    ],
    [
      "an empty variant inherits everything",
      top,
      {},
      { metadata: top.metadata, binScan: "auto", libcLint: true },
    ],
    [
      "explicit variant values override, off and false included",
      top,
      { metadata: { default: "v.json", platforms: {} }, bin_scan: "off", libc_lint: false },
      { metadata: { default: "v.json", platforms: {} }, binScan: "off", libcLint: false },
    ],
    [
      "nothing given: the spec's defaults",
      {},
      undefined,
      { metadata: undefined, binScan: "off", libcLint: true },
    ],
  ];
  test.each(cases)("%s", (_name, spec, variant, expected) => {
    expect(contentSettings(spec, variant)).toEqual(expected);
  });
});

describe("selectMetadata", () => {
  let dir: TempDir;
  const doc = (marker: string) =>
    JSON.stringify({ type: "bundle", version: 1, env: [{ key: "MARK", type: "constant", value: marker }] });
  const markOf = async (spec: ContentKeys, variant: ContentKeys | undefined, platform: string) => {
    const selected = await selectMetadata(spec, variant, platform, dir.path);
    return { mark: selected.metadata.env?.[0]?.value, file: selected.file };
  };

  beforeAll(async () => {
    dir = await tempDir("select-metadata-");
    await mkdir(join(dir.path, "meta"));
    for (const name of ["top", "top-musl", "top-win", "variant", "variant-arm"]) {
      await writeFile(join(dir.path, "meta", `${name}.json`), doc(name));
    }
    await writeFile(join(dir.path, "meta", "broken.json"), '{"type": "bundle",');
    await writeFile(join(dir.path, "meta", "wrong.json"), '{"type": "bundle", "version": 2}');
  });
  afterAll(async () => {
    await dir.remove();
  });

  const topPaths: MetadataPaths = {
    default: "meta/top.json",
    platforms: { "linux/amd64+libc.musl": "meta/top-musl.json", "windows/amd64": "meta/top-win.json" },
  };
  const variantPaths: MetadataPaths = {
    default: "meta/variant.json",
    platforms: { "linux/arm64": "meta/variant-arm.json" },
  };
  const spec: ContentKeys = { metadata: topPaths };

  const cases: Array<[string, ContentKeys | undefined, string, string]> = [
    ["top-level default", undefined, "linux/amd64", "top"],
    ["top-level per-platform override", undefined, "linux/amd64+libc.musl", "top-musl"],
    ["another platform's override does not leak", undefined, "linux/amd64+libc.glibc", "top"],
    ["windows override", undefined, "windows/amd64", "top-win"],
    ["a variant without metadata inherits the top-level block", {}, "linux/amd64+libc.musl", "top-musl"],
    [
      "a variant's block replaces the top-level one, its default first",
      { metadata: variantPaths },
      "linux/amd64+libc.musl",
      "variant",
    ],
    ["a variant's per-platform override", { metadata: variantPaths }, "linux/arm64", "variant-arm"],
  ];
  test.each(cases)("%s", async (_name, variant, platform, mark) => {
    const selected = await markOf(spec, variant, platform);
    expect(selected.mark).toBe(mark);
    expect(selected.file).toBe(join(dir.path, "meta", `${mark}.json`));
  });

  test("no metadata block anywhere: the default metadata, no file", async () => {
    expect(await selectMetadata({}, undefined, "linux/amd64", dir.path)).toEqual({
      metadata: defaultMetadata(),
    });
    expect(await selectMetadata({}, {}, "darwin/arm64", dir.path)).toEqual({ metadata: defaultMetadata() });
  });

  test("an absolute path is taken as it is", async () => {
    const absolute = join(dir.path, "meta", "variant.json");
    const selected = await markOf(
      { metadata: { default: absolute, platforms: {} } },
      undefined,
      "linux/amd64",
    );
    expect(selected).toEqual({ mark: "variant", file: absolute });
  });

  test.each([
    ["meta/broken.json", /broken\.json: 1:\d+: not valid JSON/],
    ["meta/wrong.json", /wrong\.json/],
    ["meta/gone.json", /metadata file .*gone\.json cannot be read \(ENOENT\)/],
  ])("%s is a data error naming the file", async (path, message) => {
    const error = await selectMetadata(
      { metadata: { default: path, platforms: {} } },
      undefined,
      "linux/amd64",
      dir.path,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PkgError);
    expect((error as PkgError).exitCode).toBe(ExitCode.Data);
    expect((error as PkgError).message).toMatch(message);
  });
});
