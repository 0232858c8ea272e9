// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the data under test
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExitCode, PkgError } from "@pkg/common";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readMetadataFile, writeMetadataFile } from "./files.js";
import type { Metadata } from "./model.js";
import { parseMetadata } from "./parse.js";
import { serializeMetadata } from "./serialize.js";
import { validateMetadata } from "./validate.js";

const digest = `sha256:${"a".repeat(64)}`;
const other = `sha256:${"b".repeat(64)}`;

const full = {
  $schema: "https://example.com/metadata.json",
  version: 1,
  type: "bundle",
  strip_components: 1,
  env: [
    { key: "PATH", type: "path", value: "${installPath}/bin", required: true, visibility: "public" },
    { key: "PATH", type: "path", value: "${installPath}/sbin" },
    { key: "PYTHONHOME", type: "constant", value: "${deps.python.installPath}", visibility: "private" },
    { key: "TOOL_HOME", type: "constant", value: "${installPath}" },
    { key: "GREETING", type: "constant", value: "costs $5" },
  ],
  binaries: ["tool", "tool.exe"],
  entrypoints: [
    { name: "tool-fmt", target: "tool", args: ["fmt", "--config", "${installPath}/etc/fmt.toml"] },
    { name: "py", target: "${deps.python.installPath}/bin/python" },
  ],
  dependencies: [
    { identifier: `ghcr.io/acme/cpython:3.13@${digest}`, name: "python", visibility: "private" },
    { identifier: `localhost:5000/lib/zlib@${other}` },
  ],
};

describe("metadata validation", () => {
  it("accepts a full document and drops $schema", () => {
    const metadata = parseMetadata(JSON.stringify(full), "metadata.json");
    const { $schema: _schema, ...rest } = full;
    expect(metadata).toEqual(rest);
  });

  it("accepts the smallest document", () => {
    expect(parseMetadata('{"type":"bundle","version":1}', "m.json")).toEqual({ type: "bundle", version: 1 });
  });

  const cases: [string, unknown, string][] = [
    ["not an object", [], "m.json: the document must be a JSON object"],
    ["an unknown top-level key", { ...full, platform: "linux/amd64" }, "m.json: platform is not a known key"],
    ["a wrong type", { ...full, type: "app" }, 'm.json: type must be "bundle"'],
    ["a wrong version", { ...full, version: 2 }, "m.json: version must be 1"],
    [
      "a negative strip",
      { ...full, strip_components: -1 },
      "m.json: strip_components must be a whole number, 0 or more",
    ],
    [
      "a fractional strip",
      { ...full, strip_components: 1.5 },
      "m.json: strip_components must be a whole number",
    ],
    [
      "an unknown env key",
      { ...full, env: [{ key: "A", type: "path", value: "x", colour: "red" }] },
      "m.json: env[0].colour is not a known key",
    ],
    [
      "an env entry without value",
      { ...full, env: [{ key: "A", type: "path" }] },
      "m.json: env[0].value must be a non-empty string",
    ],
    [
      "a bad env type",
      { ...full, env: [{ key: "A", type: "list", value: "x" }] },
      'm.json: env[0].type must be "path" or "constant"',
    ],
    [
      "a bad env name",
      { ...full, env: [{ key: "1A", type: "path", value: "x" }] },
      'm.json: env[0].key "1A" must be an environment variable name',
    ],
    [
      "a required constant",
      { ...full, env: [{ key: "A", type: "constant", value: "x", required: true }] },
      "m.json: env[0].required applies to path entries only",
    ],
    [
      "a non-boolean required",
      { ...full, env: [{ key: "A", type: "path", value: "x", required: "yes" }] },
      "m.json: env[0].required must be true or false",
    ],
    [
      "a bad visibility",
      { ...full, env: [{ key: "A", type: "path", value: "x", visibility: "sealed" }] },
      'm.json: env[0].visibility must be "public", "private" or "interface"',
    ],
    [
      "a constant set twice",
      {
        ...full,
        env: [
          { key: "A", type: "constant", value: "x" },
          { key: "A", type: "constant", value: "y" },
        ],
      },
      "m.json: env[1].key sets A again",
    ],
    [
      "a constant also declared as a path",
      {
        ...full,
        env: [
          { key: "A", type: "path", value: "x" },
          { key: "A", type: "constant", value: "y" },
        ],
      },
      "m.json: env[1].key sets A again",
    ],
    [
      "an unknown placeholder",
      { ...full, env: [{ key: "A", type: "path", value: "${HOME}/bin" }] },
      "m.json: env[0].value has an unknown placeholder ${HOME}",
    ],
    [
      "an unclosed placeholder",
      { ...full, env: [{ key: "A", type: "path", value: "${installPath/bin" }] },
      'm.json: env[0].value has a "${" that is never closed',
    ],
    [
      "a placeholder naming no dependency",
      { ...full, env: [{ key: "A", type: "path", value: "${deps.ruby.installPath}" }] },
      'm.json: env[0].value refers to dependency "ruby", which is not declared',
    ],
    [
      "binaries with a path",
      { ...full, binaries: ["bin/tool"] },
      'm.json: binaries[0] "bin/tool" must be a file name, not a path',
    ],
    ["binaries repeated", { ...full, binaries: ["a", "a"] }, 'm.json: binaries[1] repeats "a"'],
    ["binaries not a list", { ...full, binaries: "tool" }, "m.json: binaries must be an array"],
    [
      "an entrypoint without target",
      { ...full, entrypoints: [{ name: "x" }] },
      "m.json: entrypoints[0].target must be a non-empty string",
    ],
    [
      "an entrypoint repeated",
      {
        ...full,
        entrypoints: [
          { name: "x", target: "a" },
          { name: "x", target: "b" },
        ],
      },
      'm.json: entrypoints[1].name repeats "x"',
    ],
    [
      "an entrypoint with a bad argument",
      { ...full, entrypoints: [{ name: "x", target: "a", args: ["${nope}"] }] },
      "m.json: entrypoints[0].args[0] has an unknown placeholder ${nope}",
    ],
    [
      "an unknown entrypoint key",
      { ...full, entrypoints: [{ name: "x", target: "a", env: {} }] },
      "m.json: entrypoints[0].env is not a known key",
    ],
    [
      "an unpinned dependency",
      { ...full, dependencies: [{ identifier: "ghcr.io/acme/cpython:3.13", name: "python" }] },
      'm.json: dependencies[0].identifier "ghcr.io/acme/cpython:3.13" is not pinned by digest',
    ],
    [
      "a dependency without registry",
      { ...full, dependencies: [{ identifier: `acme/cpython@${digest}`, name: "python" }] },
      "m.json: dependencies[0].identifier is not <registry>/<repository>[:<tag>]@sha256:<hex>",
    ],
    [
      "a dependency with a bad digest",
      { ...full, dependencies: [{ identifier: "ghcr.io/acme/cpython@sha256:123", name: "python" }] },
      "m.json: dependencies[0].identifier is not <registry>/<repository>[:<tag>]@sha256:<hex>",
    ],
    [
      "a dependency listed twice",
      {
        ...full,
        dependencies: [
          { identifier: `ghcr.io/acme/cpython@${digest}`, name: "python" },
          { identifier: `ghcr.io/acme/cpython:3.12@${other}`, name: "python312" },
        ],
      },
      "m.json: dependencies[1].identifier names ghcr.io/acme/cpython a second time",
    ],
    [
      "two dependencies with one name",
      {
        ...full,
        dependencies: [
          { identifier: `ghcr.io/acme/python@${digest}` },
          { identifier: `ghcr.io/other/python@${other}` },
        ],
      },
      'm.json: dependencies[1] is named "python" like an earlier dependency',
    ],
    [
      "an unknown dependency key",
      { ...full, dependencies: [{ identifier: `ghcr.io/acme/python@${digest}`, pin: true }] },
      "m.json: dependencies[0].pin is not a known key",
    ],
    [
      "a bad dependency visibility",
      { ...full, dependencies: [{ identifier: `ghcr.io/acme/python@${digest}`, visibility: "open" }] },
      'm.json: dependencies[0].visibility must be "private", "public", "interface" or "sealed"',
    ],
  ];

  it.each(cases)("refuses %s", (_name, document, message) => {
    let error: unknown;
    try {
      parseMetadata(JSON.stringify(document), "m.json");
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(PkgError);
    expect((error as PkgError).exitCode).toBe(ExitCode.Data);
    expect((error as PkgError).message.startsWith(message)).toBe(true);
    expect((error as PkgError).message).not.toContain("\n");
  });

  it.each([
    [
      '{"type": "bundle",\n  "version": 1,\n}',
      "m.json: 3:1: not valid JSON: Expected double-quoted property name",
    ],
    [
      '{"type":"bundle"} extra',
      "m.json: 1:19: not valid JSON: Unexpected non-whitespace character after JSON",
    ],
    ["", "m.json: not valid JSON: Unexpected end of JSON input"],
  ])("reports a syntax error in %j with its position", (text, message) => {
    expect(() => parseMetadata(text, "m.json")).toThrow(message);
  });

  it("names the whole message on one line without echoing the input", () => {
    let message = "";
    try {
      parseMetadata('{"type": bundle}', "m.json");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^m\.json: not valid JSON: Unexpected token/);
    expect(message).not.toContain('"type"');
  });
});

describe("serializeMetadata", () => {
  const metadata = parseMetadata(JSON.stringify(full), "metadata.json");

  it("writes compact JSON with keys sorted at every level and arrays in order", () => {
    const text = serializeMetadata(metadata).toString("utf8");
    expect(text).toBe(
      [
        '{"binaries":["tool","tool.exe"],',
        `"dependencies":[{"identifier":"ghcr.io/acme/cpython:3.13@${digest}","name":"python","visibility":"private"},`,
        `{"identifier":"localhost:5000/lib/zlib@${other}"}],`,
        '"entrypoints":[{"args":["fmt","--config","${installPath}/etc/fmt.toml"],"name":"tool-fmt","target":"tool"},',
        '{"name":"py","target":"${deps.python.installPath}/bin/python"}],',
        '"env":[{"key":"PATH","required":true,"type":"path","value":"${installPath}/bin","visibility":"public"},',
        '{"key":"PATH","type":"path","value":"${installPath}/sbin"},',
        '{"key":"PYTHONHOME","type":"constant","value":"${deps.python.installPath}","visibility":"private"},',
        '{"key":"TOOL_HOME","type":"constant","value":"${installPath}"},',
        '{"key":"GREETING","type":"constant","value":"costs $5"}],',
        '"strip_components":1,"type":"bundle","version":1}',
      ].join(""),
    );
  });

  it("gives the same bytes for the same model however it was written", () => {
    const reordered = JSON.parse(JSON.stringify(full), (_key, value) =>
      value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    );
    const pretty = JSON.stringify(reordered, null, 4);
    const fromPretty = serializeMetadata(parseMetadata(pretty, "pretty.json"));
    const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
    expect(sha(fromPretty)).toBe(sha(serializeMetadata(metadata)));
    expect(serializeMetadata(parseMetadata(fromPretty.toString("utf8"), "again.json"))).toEqual(fromPretty);
  });

  it("refuses to serialise an invalid model", () => {
    const bad = { ...metadata, binaries: ["a/b"] } as Metadata;
    expect(() => serializeMetadata(bad)).toThrow(/metadata: binaries\[0\]/);
  });

  it("validates models built in code the same way as files", () => {
    expect(() => validateMetadata({ type: "bundle", version: 1, extra: 1 }, "composed")).toThrow(
      "composed: extra is not a known key",
    );
  });
});

describe("metadata files", () => {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pkg-metadata-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads a file and writes its canonical bytes", async () => {
    const source = join(dir, "in.json");
    await writeFile(source, JSON.stringify(full, null, 2));
    const metadata = await readMetadataFile(source);
    const target = join(dir, "metadata.json");
    await writeMetadataFile(target, metadata);
    expect(await readFile(target)).toEqual(serializeMetadata(metadata));
  });

  it("names the file in a validation error", async () => {
    const source = join(dir, "bad.json");
    await writeFile(source, '{"type":"bundle","version":1,"envs":[]}');
    await expect(readMetadataFile(source)).rejects.toThrow(`${source}: envs is not a known key`);
  });
});
