import {
  accept,
  base,
  type ConformanceCase,
  config,
  type JsonObject,
  onDisk,
  refuse,
  refuseFile,
  type SchemaRelation,
  sources,
  without,
} from "../support/config-case.js";
import { credentialCases } from "./credentials.cases.js";

/*
 * The conformance table of catalog-config.md: every rule and every error code, as input → the
 * loader's verdict (code, key path, message fragment) or the parsed result. The schema-agreement
 * test reads the same rows.
 */

const q = (value: string) => JSON.stringify(value);
const nonEmpty = "must be a non-empty string, not an empty string";

/** A key written twice in one object: INVALID_JSON naming its key path, at its second occurrence. */
function duplicateKeys(): ConformanceCase[] {
  const row = (rule: string, bytes: string, keyPath: string, message: string): ConformanceCase => ({
    rule: `INVALID_JSON: a duplicate key ${rule}`,
    input: { bytes },
    expect: { refused: { code: "INVALID_JSON", keyPath, message } },
  });
  return [
    row(
      "at the top level",
      '{\n  "sources": [{"path": "index"}],\n  "brand": {"title": "a"},\n  "brand": {"title": "b"}\n}\n',
      "brand",
      "{dir}/catalog.config.json:4:3: duplicate key brand (first at line 3 column 3)",
    ),
    row(
      "in a source entry",
      '{\n  "sources": [\n    {"path": "index"},\n    {"path": "a", "root": true, "path": "b"}\n  ],\n  "brand": {"title": "a"}\n}\n',
      "sources[1].path",
      "{dir}/catalog.config.json:4:33: duplicate key sources[1].path (first at line 4 column 6)",
    ),
    row(
      "inside ci, the open object",
      '{"sources": [{"path": "index"}], "brand": {"title": "a"}, "ci": {"forge": "github", "x": {"y": 1, "y": 1}}}',
      "ci.x.y",
      "{dir}/catalog.config.json:1:99: duplicate key ci.x.y (first at line 1 column 91)",
    ),
    row(
      "spelt with an escape",
      '{"sources": [{"path": "index"}], "brand": {"title": "a", "\\u0074itle": "b"}}',
      "brand.title",
      "duplicate key brand.title",
    ),
  ];
}

const files: ConformanceCase[] = [
  refuseFile(
    "MISSING_FILE: the config file does not exist",
    { missing: true },
    "MISSING_FILE",
    "{dir}/catalog.config.json does not exist",
  ),
  refuseFile(
    "READ_ERROR: the path is a directory",
    { directory: true },
    "READ_ERROR",
    "is a directory, not a file",
  ),
  refuseFile(
    "INVALID_JSON: a syntax error",
    { bytes: '{"sources": [}' },
    "INVALID_JSON",
    "catalog.config.json is not valid JSON",
  ),
  refuseFile(
    "INVALID_JSON: a trailing comma is located by line and column",
    { bytes: '{\n  "brand": {"title": "x"},\n}\n' },
    "INVALID_JSON",
    "at line 3 column 1",
  ),
  refuseFile("INVALID_JSON: an empty file", { bytes: "" }, "INVALID_JSON", "Unexpected end of JSON input"),
  refuseFile(
    "INVALID_JSON: bytes that are not UTF-8",
    { bytes: new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]) },
    "INVALID_JSON",
    "it is not UTF-8 text",
  ),
  {
    rule: "a UTF-8 byte-order mark before the JSON is ignored",
    input: { bytes: `\ufeff${JSON.stringify(base())}` },
    expect: { accepted: { parsed: () => ({ brand: { title: "Acme tools" } }) } },
  },
  ...duplicateKeys(),
  refuse("the document is an array", [], "INVALID_TYPE", "", "the config must be an object, not an array"),
  refuse("the document is null", null, "INVALID_TYPE", "", "the config must be an object, not null"),
  refuse("the document is a string", "x", "INVALID_TYPE", "", "the config must be an object, not a string"),
];

const version: ConformanceCase[] = [
  accept("configVersion absent means 1", base()),
  accept("configVersion 1 is accepted", config({ configVersion: 1 })),
  refuse(
    "UNSUPPORTED_VERSION: configVersion 2",
    config({ configVersion: 2 }),
    "UNSUPPORTED_VERSION",
    "configVersion",
    "configVersion 2 is not supported",
  ),
  refuse(
    "UNSUPPORTED_VERSION: configVersion 0",
    config({ configVersion: 0 }),
    "UNSUPPORTED_VERSION",
    "configVersion",
    "configVersion 0 is not supported",
  ),
  refuse(
    'UNSUPPORTED_VERSION: the string "1" is not the number 1',
    config({ configVersion: "1" }),
    "UNSUPPORTED_VERSION",
    "configVersion",
    'configVersion "1" is not supported',
  ),
  refuse(
    "UNSUPPORTED_VERSION: null",
    config({ configVersion: null }),
    "UNSUPPORTED_VERSION",
    "configVersion",
    "configVersion null is not supported",
  ),
  refuse(
    "UNSUPPORTED_VERSION is checked before the unknown-key scan",
    config({ configVersion: 3, brandd: {}, futureKey: true }),
    "UNSUPPORTED_VERSION",
    "configVersion",
    "configVersion 3 is not supported",
  ),
];

const unknownKeys: ConformanceCase[] = [
  refuse(
    "UNKNOWN_KEY at top level",
    config({ theme: "dark" }),
    "UNKNOWN_KEY",
    "theme",
    "theme is not a known key",
  ),
  refuse(
    "UNKNOWN_KEY at top level suggests the close known key",
    config({ siteURL: "https://example.com" }),
    "UNKNOWN_KEY",
    "siteURL",
    'siteURL is not a known key (did you mean "siteUrl"?)',
  ),
  refuse(
    "UNKNOWN_KEY: a key named like an Object.prototype member",
    config({ constructor: {} }),
    "UNKNOWN_KEY",
    "constructor",
    "constructor is not a known key",
  ),
  refuse(
    "UNKNOWN_KEY: a __proto__ key is a key like any other",
    JSON.parse(`{"sources":[{"path":"index"}],"brand":{"title":"t"},"__proto__":{"polluted":true}}`),
    "UNKNOWN_KEY",
    "__proto__",
    "__proto__ is not a known key",
  ),
  refuse(
    "UNKNOWN_KEY: a key that is not an identifier is quoted in the path",
    config({ "site url": "x" }),
    "UNKNOWN_KEY",
    '["site url"]',
    '["site url"] is not a known key',
  ),
  refuse(
    "UNKNOWN_KEY in brand",
    config({ brand: { title: "t", tagline: "x" } }),
    "UNKNOWN_KEY",
    "brand.tagline",
    "brand.tagline is not a known key",
  ),
  refuse(
    "UNKNOWN_KEY in brand suggests the close known key",
    config({ brand: { title: "t", logoo: "logo.svg" } }),
    "UNKNOWN_KEY",
    "brand.logoo",
    'brand.logoo is not a known key (did you mean "logo"?)',
  ),
  refuse(
    "UNKNOWN_KEY in footer",
    config({ footer: { links: [], link: [] } }),
    "UNKNOWN_KEY",
    "footer.link",
    'footer.link is not a known key (did you mean "links"?)',
  ),
  refuse(
    "UNKNOWN_KEY in a nav entry",
    config({ nav: [{ text: "a", link: "/a", target: "_blank" }] }),
    "UNKNOWN_KEY",
    "nav[0].target",
    "nav[0].target is not a known key",
  ),
  refuse(
    "UNKNOWN_KEY in a nav entry suggests the close known key",
    config({ nav: [{ txt: "a", link: "/a" }] }),
    "UNKNOWN_KEY",
    "nav[0].txt",
    'nav[0].txt is not a known key (did you mean "text"?)',
  ),
  refuse(
    "UNKNOWN_KEY in a footer link",
    config({ footer: { links: [{ text: "a", link: "/a", icon: "x" }] } }),
    "UNKNOWN_KEY",
    "footer.links[0].icon",
    "footer.links[0].icon is not a known key",
  ),
  refuse(
    "UNKNOWN_KEY in a docsNav entry",
    config({ docs: "docs", docsNav: [{ text: "a", link: "/docs/", order: 1 }] }),
    "UNKNOWN_KEY",
    "docsNav[0].order",
    "docsNav[0].order is not a known key",
  ),
  refuse(
    "UNKNOWN_KEY: ref belongs to the git variant, not to a path source",
    sources({ path: "index", ref: "main" }),
    "UNKNOWN_KEY",
    "sources[0].ref",
    "sources[0].ref is not a known key of a path source",
  ),
  refuse(
    "UNKNOWN_KEY: dir belongs to the git variant, not to a url source",
    sources({ url: "https://example.com", dir: "index" }),
    "UNKNOWN_KEY",
    "sources[0].dir",
    "sources[0].dir is not a known key of a url source",
  ),
  refuse(
    "UNKNOWN_KEY in a git source",
    sources({ git: "https://example.com/i.git", branch: "main" }),
    "UNKNOWN_KEY",
    "sources[0].branch",
    "sources[0].branch is not a known key of a git source",
  ),
  refuse(
    "UNKNOWN_KEY in a source suggests the close common key",
    sources({ path: "index", lable: "acme" }),
    "UNKNOWN_KEY",
    "sources[0].lable",
    'sources[0].lable is not a known key of a path source (did you mean "label"?)',
  ),
  accept(
    "ci is exempt from the unknown-key rule: extra keys are kept as written",
    config({ ci: { forge: "github", nodeVersion: "22", cache: { enabled: true }, forge2: 1 } }),
    { parsed: () => ({ ci: { forge: "github", nodeVersion: "22", cache: { enabled: true }, forge2: 1 } }) },
  ),
  accept(
    "ci: a __proto__ key passes through as a plain key",
    JSON.parse(
      `{"sources":[{"path":"index"}],"brand":{"title":"t"},"ci":{"forge":"gitlab","__proto__":{"x":1}}}`,
    ),
    { absent: ["ci.x"] },
  ),
];

/** Each string field, set to "": key path → file. */
const stringFields: [string, JsonObject][] = [
  ["$schema", config({ $schema: "" })],
  ["brand.title", config({ brand: { title: "" } })],
  ["brand.wordmark", config({ brand: { title: "t", wordmark: "" } })],
  ["brand.logo", config({ brand: { title: "t", logo: "" } })],
  ["nav[0].text", config({ nav: [{ text: "", link: "/a" }] })],
  ["nav[0].link", config({ nav: [{ text: "a", link: "" }] })],
  ["footer.links[0].text", config({ footer: { links: [{ text: "", link: "/a" }] } })],
  ["footer.links[0].link", config({ footer: { links: [{ text: "a", link: "" }] } })],
  ["docs", config({ docs: "" })],
  ["docsNav[0].text", config({ docs: "docs", docsNav: [{ text: "", link: "/docs/" }] })],
  ["docsNav[0].link", config({ docs: "docs", docsNav: [{ text: "a", link: "" }] })],
  ["css", config({ css: "" })],
  ["publicDir", config({ publicDir: "" })],
  ["ci.forge", config({ ci: { forge: "" } })],
  ["ci.packageManager", config({ ci: { forge: "github", packageManager: "" } })],
  ["siteUrl", config({ siteUrl: "" })],
  ["ownerUrl", config({ ownerUrl: "" })],
  ["description", config({ description: "" })],
  ["favicon", config({ favicon: "" })],
  ["sources[0].path", sources({ path: "" })],
  ["sources[0].url", sources({ url: "" })],
  ["sources[0].git", sources({ git: "" })],
  ["sources[0].ref", sources({ git: "https://example.com/i.git", ref: "" })],
  ["sources[0].dir", sources({ git: "https://example.com/i.git", dir: "" })],
  ["sources[0].label", sources({ path: "index", label: "" })],
  ["sources[0].ownerUrl", sources({ path: "index", ownerUrl: "" })],
];
const emptyStrings = stringFields.map(([path, json]) =>
  refuse(`INVALID_TYPE: ${path} is an empty string`, json, "INVALID_TYPE", path, `${path} ${nonEmpty}`),
);

const types: ConformanceCase[] = [
  refuse(
    "INVALID_TYPE: brand is a string",
    config({ brand: "Acme" }),
    "INVALID_TYPE",
    "brand",
    "brand must be an object, not a string",
  ),
  refuse(
    "INVALID_TYPE: brand.title is a number",
    config({ brand: { title: 1 } }),
    "INVALID_TYPE",
    "brand.title",
    "brand.title must be a non-empty string, not a number",
  ),
  refuse(
    "INVALID_TYPE: sources is an object",
    config({ sources: {} }),
    "INVALID_TYPE",
    "sources",
    "sources must be an array, not an object",
  ),
  refuse(
    "INVALID_TYPE: a source entry is a string",
    sources("index"),
    "INVALID_TYPE",
    "sources[0]",
    "sources[0] must be an object, not a string",
  ),
  refuse(
    "INVALID_TYPE: a source entry is null",
    sources(null),
    "INVALID_TYPE",
    "sources[0]",
    "sources[0] must be an object, not null",
  ),
  refuse(
    "INVALID_TYPE: sources[].path is null",
    sources({ path: null }),
    "INVALID_TYPE",
    "sources[0].path",
    "sources[0].path must be a non-empty string, not null",
  ),
  refuse(
    "INVALID_TYPE: sources[].url is a number",
    sources({ url: 443 }),
    "INVALID_TYPE",
    "sources[0].url",
    "sources[0].url must be a non-empty string, not a number",
  ),
  refuse(
    "INVALID_TYPE: root is a string",
    sources({ path: "index", root: "yes" }),
    "INVALID_TYPE",
    "sources[0].root",
    "sources[0].root must be true or false, not a string",
  ),
  refuse(
    "INVALID_TYPE: default is a number",
    sources({ path: "index", default: 1 }),
    "INVALID_TYPE",
    "sources[0].default",
    "sources[0].default must be true or false, not a number",
  ),
  refuse(
    "INVALID_TYPE: excludeFromAll is null",
    sources({ path: "index", excludeFromAll: null }),
    "INVALID_TYPE",
    "sources[0].excludeFromAll",
    "sources[0].excludeFromAll must be true or false, not null",
  ),
  refuse(
    "INVALID_TYPE: nav is an object",
    config({ nav: {} }),
    "INVALID_TYPE",
    "nav",
    "nav must be an array, not an object",
  ),
  refuse(
    "INVALID_TYPE: a nav entry is null",
    config({ nav: [null] }),
    "INVALID_TYPE",
    "nav[0]",
    "nav[0] must be an object, not null",
  ),
  refuse(
    "INVALID_TYPE: footer is an array",
    config({ footer: [] }),
    "INVALID_TYPE",
    "footer",
    "footer must be an object, not an array",
  ),
  refuse(
    "INVALID_TYPE: footer.links is a string",
    config({ footer: { links: "/a" } }),
    "INVALID_TYPE",
    "footer.links",
    "footer.links must be an array, not a string",
  ),
  refuse(
    "INVALID_TYPE: docsNav is an object",
    config({ docs: "docs", docsNav: {} }),
    "INVALID_TYPE",
    "docsNav",
    "docsNav must be an array, not an object",
  ),
  refuse(
    "INVALID_TYPE: ci is an array",
    config({ ci: [] }),
    "INVALID_TYPE",
    "ci",
    "ci must be an object, not an array",
  ),
  refuse(
    'INVALID_TYPE: ci.verifyCi is the string "false"',
    config({ ci: { forge: "github", verifyCi: "false" } }),
    "INVALID_TYPE",
    "ci.verifyCi",
    "ci.verifyCi must be true or false, not a string",
  ),
  refuse(
    "INVALID_TYPE: description is a number",
    config({ description: 42 }),
    "INVALID_TYPE",
    "description",
    "description must be a non-empty string, not a number",
  ),
  refuse(
    "INVALID_TYPE: favicon is a boolean",
    config({ favicon: true }),
    "INVALID_TYPE",
    "favicon",
    "favicon must be a non-empty string, not a boolean",
  ),
  refuse(
    "INVALID_TYPE: $schema is an object",
    config({ $schema: {} }),
    "INVALID_TYPE",
    "$schema",
    "$schema must be a non-empty string, not an object",
  ),
  refuse(
    "INVALID_TYPE: docs is a number",
    config({ docs: 5 }),
    "INVALID_TYPE",
    "docs",
    "docs must be a non-empty string, not a number",
  ),
];

const required: ConformanceCase[] = [
  refuse("sources is required", without("sources"), "INVALID_TYPE", "sources", "sources is required"),
  refuse("brand is required", without("brand"), "INVALID_TYPE", "brand", "brand is required"),
  refuse(
    "brand.title is required",
    config({ brand: { wordmark: "Acme" } }),
    "INVALID_TYPE",
    "brand.title",
    "brand.title is required",
  ),
  refuse(
    "footer.links is required",
    config({ footer: {} }),
    "INVALID_TYPE",
    "footer.links",
    "footer.links is required",
  ),
  refuse(
    "a nav entry needs text",
    config({ nav: [{ link: "/a" }] }),
    "INVALID_TYPE",
    "nav[0].text",
    "nav[0].text is required",
  ),
  refuse(
    "a nav entry needs link",
    config({ nav: [{ text: "a" }] }),
    "INVALID_TYPE",
    "nav[0].link",
    "nav[0].link is required",
  ),
  refuse(
    "a docsNav entry needs link",
    config({ docs: "docs", docsNav: [{ text: "a" }] }),
    "INVALID_TYPE",
    "docsNav[0].link",
    "docsNav[0].link is required",
  ),
  refuse(
    "ci.forge is required",
    config({ ci: { packageManager: "npm" } }),
    "INVALID_TYPE",
    "ci.forge",
    "ci.forge is required",
  ),
];

const shape: SchemaRelation = { agrees: "sources shape" };
const sourceRules: ConformanceCase[] = [
  refuse(
    "EMPTY_SOURCES: sources is []",
    sources(),
    "EMPTY_SOURCES",
    "sources",
    "sources must list at least one source",
    shape,
  ),
  refuse(
    "SOURCE_DISCRIMINANT: an entry with none of path, url, git",
    sources({ label: "acme" }),
    "SOURCE_DISCRIMINANT",
    "sources[0]",
    "sources[0] must have exactly one of path, url, git; it has none",
    shape,
  ),
  refuse(
    "SOURCE_DISCRIMINANT: an empty entry",
    sources({}),
    "SOURCE_DISCRIMINANT",
    "sources[0]",
    "it has none",
    shape,
  ),
  refuse(
    "SOURCE_DISCRIMINANT: a misspelt discriminant is suggested",
    sources({ pth: "index" }),
    "SOURCE_DISCRIMINANT",
    "sources[0]",
    'it has none (did you mean "path" for "pth"?)',
    shape,
  ),
  refuse(
    "SOURCE_DISCRIMINANT: path and url",
    sources({ path: "index", url: "https://example.com" }),
    "SOURCE_DISCRIMINANT",
    "sources[0]",
    "it has path and url",
    shape,
  ),
  refuse(
    "SOURCE_DISCRIMINANT: all three, in the second entry",
    sources({ path: "a" }, { path: "b", url: "https://example.com", git: "https://example.com/i.git" }),
    "SOURCE_DISCRIMINANT",
    "sources[1]",
    "sources[1] must have exactly one of path, url, git; it has path and url and git",
    shape,
  ),
  refuse(
    "SOURCE_DISCRIMINANT: a discriminant set to null still counts",
    sources({ path: null, git: "https://example.com/i.git" }),
    "SOURCE_DISCRIMINANT",
    "sources[0]",
    "it has path and git",
    shape,
  ),
  refuse(
    "MULTIPLE_ROOT: two entries set root: true",
    sources({ path: "a", root: true }, { url: "https://example.com" }, { path: "b", root: true }),
    "MULTIPLE_ROOT",
    "sources[2].root",
    "sources[2].root is true, but sources[0] is already the root source",
    shape,
  ),
  refuse(
    "MULTIPLE_DEFAULT: two entries set default: true",
    sources({ path: "a", default: true }, { git: "https://example.com/i.git", default: true }),
    "MULTIPLE_DEFAULT",
    "sources[1].default",
    "sources[1].default is true, but sources[0] is already the default",
    shape,
  ),
  accept(
    "root: false and default: false may repeat",
    sources(
      { path: "a", root: false, default: false },
      { path: "b", root: false, default: false },
      { path: "c", root: true },
    ),
    { parsed: () => ({ sources: [{ root: false }, { root: false }, { root: true }] }) },
    shape,
  ),
  accept(
    "one root and one default on different entries",
    sources({ path: "a", root: true }, { url: "https://example.com", default: true, label: "other" }),
    { parsed: () => ({ sources: [{ root: true }, { default: true, label: "other" }] }) },
    shape,
  ),
  accept(
    "root and default on the same entry",
    sources({ path: "a", root: true, default: true }, { path: "b" }),
    { absent: ["sources.1.root", "sources.1.default"] },
    shape,
  ),
  accept(
    "excludeFromAll may be set on every source",
    sources({ path: "a", excludeFromAll: true }, { path: "b", excludeFromAll: true }),
    { parsed: () => ({ sources: [{ excludeFromAll: true }, { excludeFromAll: true }] }) },
  ),
  refuse(
    "LABEL_CONFLICT: two entries declare the same explicit label",
    sources({ path: "a", label: "acme" }, { url: "https://example.com", label: "acme" }),
    "LABEL_CONFLICT",
    "sources[1].label",
    'sources[1].label "acme" is already the label of sources[0]',
    { accepts: "duplicate label" },
  ),
  accept(
    "entries without a label never conflict: labels are derived from the data later",
    sources({ path: "a" }, { path: "b" }),
    { absent: ["sources.0.label", "sources.1.label"] },
  ),
  accept("different explicit labels", sources({ path: "a", label: "acme" }, { path: "b", label: "Acme" })),
  refuse(
    'INVALID_TYPE: an explicit label containing "/" is no index name',
    sources({ path: "a", label: "acme/tools" }),
    "INVALID_TYPE",
    "sources[0].label",
    'sources[0].label must be an index name without "/", not "acme/tools"',
  ),
  {
    ...accept(
      "LABEL_PREFIX_MISMATCH needs the index data: the loader accepts any plausible label",
      sources({ path: "index", label: "acme" }),
      { parsed: () => ({ sources: [{ label: "acme" }] }) },
    ),
    raisedElsewhere: {
      code: "LABEL_PREFIX_MISMATCH",
      testedIn:
        "packages/catalog/test/sources (the source readers compare labels with the package names they read)",
    },
  },
  accept(
    "a git source keeps git, ref and dir as written",
    sources({ git: "https://example.com/acme/index.git", ref: "v1", dir: "site/index" }),
    {
      parsed: () => ({
        sources: [
          { kind: "git", index: 0, git: "https://example.com/acme/index.git", ref: "v1", dir: "site/index" },
        ],
      }),
    },
  ),
  accept("a git source without ref and dir", sources({ git: "git@example.com:acme/index.git" }), {
    absent: ["sources.0.ref", "sources.0.dir"],
  }),
];

const gitDir = (dir: string) => sources({ git: "https://example.com/acme/index.git", dir });
const climbsOut = {
  beyond: "whether .. segments climb out needs counting them against the ones before, which no pattern can",
};
const gitDirRules: ConformanceCase[] = [
  refuse(
    "PATH_ESCAPE: a git dir that is absolute",
    gitDir("/etc"),
    "PATH_ESCAPE",
    "sources[0].dir",
    'sources[0].dir "/etc" must name a directory inside the checkout, and it is absolute',
  ),
  refuse(
    "PATH_ESCAPE: a git dir that climbs out of the checkout",
    gitDir("../x"),
    "PATH_ESCAPE",
    "sources[0].dir",
    'sources[0].dir "../x" must name a directory inside the checkout, and it climbs out of it',
    climbsOut,
  ),
  refuse(
    "PATH_ESCAPE: a git dir that climbs out below a subdirectory",
    gitDir("site/../../x"),
    "PATH_ESCAPE",
    "sources[0].dir",
    'sources[0].dir "site/../../x" must name a directory inside the checkout',
    climbsOut,
  ),
  accept("a git dir whose .. stays inside the checkout", gitDir("site/../index"), {
    parsed: () => ({ sources: [{ dir: "site/../index" }] }),
  }),
  accept("a git dir starting with two dots is a name", gitDir("..index"), {
    parsed: () => ({ sources: [{ dir: "..index" }] }),
  }),
];

const urlSource = (url: string) => sources({ url });
const urlRules: ConformanceCase[] = [
  accept(
    "sources[].url: an https URL, trailing slashes dropped",
    urlSource("https://Index.Example.com/acme/"),
    {
      parsed: () => ({ sources: [{ kind: "url", url: "https://index.example.com/acme" }] }),
    },
  ),
  accept("sources[].url: a bare https origin", urlSource("https://example.com"), {
    parsed: () => ({ sources: [{ url: "https://example.com" }] }),
  }),
  refuse(
    "sources[].url: http is refused",
    urlSource("http://example.com"),
    "INVALID_TYPE",
    "sources[0].url",
    'must be an https:// URL, not "http://example.com"',
  ),
  refuse(
    "sources[].url: a scheme in capitals is refused, as the schema's pattern does",
    urlSource("HTTPS://example.com"),
    "INVALID_TYPE",
    "sources[0].url",
    "must be an https:// URL",
  ),
  refuse(
    "sources[].url: a relative path is refused",
    urlSource("/index"),
    "INVALID_TYPE",
    "sources[0].url",
    "must be an https:// URL",
  ),
  refuse(
    "sources[].url: https:// with no host does not parse",
    urlSource("https://"),
    "INVALID_TYPE",
    "sources[0].url",
    'and "https://" does not parse as a URL',
    { accepts: "sources[].url" },
  ),
  refuse(
    "sources[].url: a host with a space does not parse",
    urlSource("https://exa mple.com"),
    "INVALID_TYPE",
    "sources[0].url",
    "contains whitespace or a control character",
    { accepts: "sources[].url" },
  ),
  refuse(
    "sources[].url: an unclosed IPv6 host does not parse",
    urlSource("https://[::1/index"),
    "INVALID_TYPE",
    "sources[0].url",
    "does not parse as a URL",
    { accepts: "sources[].url" },
  ),
  refuse(
    "sources[].url: a trailing newline the parser would strip",
    urlSource("https://example.com/\n"),
    "INVALID_TYPE",
    "sources[0].url",
    "contains whitespace or a control character",
    { accepts: "sources[].url" },
  ),
];

const siteUrls: ConformanceCase[] = [
  accept("siteUrl: an https origin", config({ siteUrl: "https://tools.example.com" }), {
    parsed: () => ({ siteUrl: "https://tools.example.com" }),
  }),
  accept("siteUrl: http with a path is kept as written", config({ siteUrl: "http://example.com/catalog/" }), {
    parsed: () => ({ siteUrl: "http://example.com/catalog/" }),
  }),
  ...(
    [
      ["not a url", "not a url", "contains whitespace or a control character"],
      ["a relative path", "/catalog", 'siteUrl must be an absolute http or https URL, not "/catalog"'],
      ["ftp", "ftp://example.com", 'siteUrl must be an absolute http or https URL, not "ftp://example.com"'],
      ["javascript:", "javascript:alert(1)", "siteUrl must be an absolute http or https URL"],
      ["http: without slashes", "http:example.com", "siteUrl must be an absolute http or https URL"],
      ["a host that does not parse", "https://exa%mple.com", "does not parse as a URL"],
      ["leading whitespace the parser would strip", " https://example.com", "contains whitespace"],
    ] as const
  ).map(([what, siteUrl, message]) =>
    refuse(`siteUrl: ${what} is refused`, config({ siteUrl }), "INVALID_TYPE", "siteUrl", message, {
      accepts: "siteUrl",
    }),
  ),
];

/** Owner templates, checked the same at top level and per source. */
const ownerUrls: ConformanceCase[] = [
  accept(
    "ownerUrl: an https template with {login}",
    config({ ownerUrl: "https://forge.example.com/{login}" }),
    {
      parsed: () => ({ ownerUrl: "https://forge.example.com/{login}" }),
    },
  ),
  accept(
    "sources[].ownerUrl: an http template with {login} in the query",
    sources({ path: "index", ownerUrl: "http://example.com/users?name={login}" }),
    { parsed: () => ({ sources: [{ ownerUrl: "http://example.com/users?name={login}" }] }) },
  ),
  ...(
    [
      ["without {login}", "https://example.com/users", "has it 0 times"],
      ["with {login} twice", "https://example.com/{login}/{login}", "has it 2 times"],
      ["with ftp", "ftp://example.com/{login}", "must be an absolute http or https URL template"],
      ["relative", "/users/{login}", "must be an absolute http or https URL template"],
      [
        "with a capitalised scheme",
        "HTTPS://example.com/{login}",
        "must be an absolute http or https URL template",
      ],
    ] as const
  ).flatMap(([what, ownerUrl, message]) => [
    refuse(`ownerUrl ${what} is refused`, config({ ownerUrl }), "INVALID_TYPE", "ownerUrl", message),
    refuse(
      `sources[].ownerUrl ${what} is refused`,
      sources({ path: "a" }, { path: "b", ownerUrl }),
      "INVALID_TYPE",
      "sources[1].ownerUrl",
      message,
    ),
  ]),
  ...(
    [
      ["a host with a space", "https://exa mple.com/{login}", "contains whitespace or a control character"],
      ["an unclosed IPv6 host", "https://[::1/{login}", "does not parse as a URL"],
      ["no host", "https:///{login}", "must be an absolute http or https URL template"],
    ] as const
  ).flatMap(([what, ownerUrl, message]) => [
    refuse(
      `ownerUrl with ${what} matches the schema's pattern but does not parse`,
      config({ ownerUrl }),
      "INVALID_TYPE",
      "ownerUrl",
      message,
      {
        accepts: "ownerUrl",
      },
    ),
    refuse(
      `sources[].ownerUrl with ${what} matches the schema's pattern but does not parse`,
      sources({ path: "index", ownerUrl }),
      "INVALID_TYPE",
      "sources[0].ownerUrl",
      message,
      { accepts: "ownerUrl" },
    ),
  ]),
];

const navLinks = { accepts: "nav links" } as const;
/** Hostile or malformed nav links: what, link, message fragment. */
const badLinks: (readonly [string, string, string])[] = [
  ["javascript:", "javascript:alert(1)", "is not allowed: only http(s) URLs and site paths are"],
  ["JavaScript: in mixed case", "JavaScript:alert(1)", "is not allowed"],
  ["data:", "data:text/html,<script>alert(1)</script>", "is not allowed"],
  ["a protocol-relative //host", "//evil.example", "points at another host"],
  ["a slash and a backslash before a host", "/\\evil.example", "contains a backslash"],
  ["two backslashes", "\\\\evil.example", "contains a backslash"],
  [
    "a tab the parser would strip from //host",
    "/\t/evil.example",
    "contains whitespace or a control character",
  ],
  ["a newline inside the scheme", "java\nscript:alert(1)", "contains whitespace or a control character"],
  ["leading whitespace", " /about", "contains whitespace or a control character"],
  ["a NUL byte", "/about\u0000", "contains whitespace or a control character"],
  ["DEL", "/ab\u007fout", "contains whitespace or a control character"],
  ["a relative path", "about", 'must be an absolute http(s) URL or a path starting with a single "/"'],
  ["a fragment only", "#top", "must be an absolute http(s) URL or a path"],
  ["mailto:", "mailto:team@example.com", "must be an absolute http(s) URL or a path"],
  ["ftp", "ftp://example.com/", "must be an absolute http(s) URL or a path"],
  ["http: without slashes", "http:evil.example", "must be an absolute http(s) URL or a path"],
  ["https:/// with an empty host", "https:///evil.example", "must be an absolute http(s) URL or a path"],
  ["an absolute URL that does not parse", "https://exa%mple.com/", "does not parse as a URL"],
];
const goodLinks = [
  "/",
  "/about",
  "/docs/intro?x=1#y",
  "https://example.com/x",
  "http://example.com",
  "HTTPS://EXAMPLE.COM/",
];
const linkRules: ConformanceCase[] = [
  ...goodLinks.map((link) =>
    accept(`nav link ${q(link)} is accepted`, config({ nav: [{ text: "x", link }] }), {
      parsed: () => ({ nav: [{ text: "x", link }] }),
    }),
  ),
  ...badLinks.map(([what, link, message]) =>
    refuse(
      `nav link: ${what} is refused`,
      config({ nav: [{ text: "x", link }] }),
      "INVALID_TYPE",
      "nav[0].link",
      message,
      navLinks,
    ),
  ),
  ...badLinks.map(([what, link, message]) =>
    refuse(
      `footer link: ${what} is refused`,
      config({
        footer: {
          links: [
            { text: "ok", link: "/ok" },
            { text: "x", link },
          ],
        },
      }),
      "INVALID_TYPE",
      "footer.links[1].link",
      message,
      navLinks,
    ),
  ),
  accept(
    "footer links follow the nav rules",
    config({ footer: { links: [{ text: "Source", link: "https://example.com/src" }] } }),
    {
      parsed: () => ({ footer: { links: [{ text: "Source", link: "https://example.com/src" }] } }),
    },
  ),
  accept("an empty footer.links is allowed", config({ footer: { links: [] } }), {
    parsed: () => ({ footer: { links: [] } }),
  }),
];

const docsNavAgrees = { agrees: "docsNav[].link" } as const;
const docsRules: ConformanceCase[] = [
  onDisk(
    ["docs/"],
    accept(
      "docsNav links /docs/ and below",
      config({
        docs: "docs",
        docsNav: [
          { text: "Docs", link: "/docs/" },
          { text: "Guide", link: "/docs/guide/start" },
        ],
      }),
      {
        parsed: (dir) => ({
          docs: `${dir}/docs`,
          docsNav: [{ link: "/docs/" }, { link: "/docs/guide/start" }],
        }),
      },
      docsNavAgrees,
    ),
  ),
  refuse(
    "docsNav: /docs without the slash is outside /docs/",
    config({ docs: "docs", docsNav: [{ text: "Docs", link: "/docs" }] }),
    "INVALID_TYPE",
    "docsNav[0].link",
    'docsNav[0].link must be /docs/ or a path below it, not "/docs"',
    docsNavAgrees,
  ),
  refuse(
    "docsNav: a sibling path",
    config({ docs: "docs", docsNav: [{ text: "Docs", link: "/documentation/" }] }),
    "INVALID_TYPE",
    "docsNav[0].link",
    "must be /docs/ or a path below it",
    docsNavAgrees,
  ),
  refuse(
    "docsNav: an absolute URL",
    config({
      docs: "docs",
      docsNav: [
        { text: "a", link: "/docs/" },
        { text: "Docs", link: "https://example.com/docs/" },
      ],
    }),
    "INVALID_TYPE",
    "docsNav[1].link",
    "must be /docs/ or a path below it",
    docsNavAgrees,
  ),
  refuse(
    "docsNav without docs",
    config({ docsNav: [{ text: "Docs", link: "/docs/" }] }),
    "INVALID_TYPE",
    "docsNav",
    "docsNav is set but docs is not; docsNav requires docs",
    { agrees: "docsNav requires docs" },
  ),
  onDisk(
    ["docs/"],
    accept(
      "docs without docsNav",
      config({ docs: "docs" }),
      { absent: ["docsNav"] },
      { agrees: "docsNav requires docs" },
    ),
  ),
];

const ciRules: ConformanceCase[] = [
  accept("ci.packageManager is not defaulted at load", config({ ci: { forge: "github" } }), {
    parsed: () => ({ ci: { forge: "github" } }),
    absent: ["ci.packageManager", "ci.verifyCi"],
  }),
  accept(
    "ci: gitlab with bun and verifyCi false",
    config({ ci: { forge: "gitlab", packageManager: "bun", verifyCi: false } }),
    {
      parsed: () => ({ ci: { forge: "gitlab", packageManager: "bun", verifyCi: false } }),
    },
  ),
  refuse(
    "ci.forge outside github|gitlab",
    config({ ci: { forge: "bitbucket" } }),
    "INVALID_TYPE",
    "ci.forge",
    'ci.forge must be "github" or "gitlab", not "bitbucket"',
  ),
  refuse(
    "ci.forge is case-sensitive",
    config({ ci: { forge: "GitHub" } }),
    "INVALID_TYPE",
    "ci.forge",
    'ci.forge must be "github" or "gitlab", not "GitHub"',
  ),
  refuse(
    "ci.packageManager outside npm|bun",
    config({ ci: { forge: "github", packageManager: "yarn" } }),
    "INVALID_TYPE",
    "ci.packageManager",
    'ci.packageManager must be "npm" or "bun", not "yarn"',
  ),
  refuse(
    "ci.packageManager is a string, not a list",
    config({ ci: { forge: "github", packageManager: ["npm"] } }),
    "INVALID_TYPE",
    "ci.packageManager",
    "ci.packageManager must be a non-empty string, not an array",
  ),
];

const beyondSchema = {
  beyond: "containment depends on where the config file lives, which one JSON document cannot see",
};
/** Each path key, escaping: rule, file, key path, raw value, resolved path. */
const escapes: (readonly [string, JsonObject, string, string, string])[] = [
  ["css with ../", config({ css: "../site.css" }), "css", "../site.css", "{parent}/site.css"],
  ["docs as an absolute path outside", config({ docs: "/etc" }), "docs", "/etc", "/etc"],
  ["publicDir with a/../../x", config({ publicDir: "a/../../x" }), "publicDir", "a/../../x", "{parent}/x"],
  ["docs as .. itself", config({ docs: ".." }), "docs", "..", "{parent}"],
  [
    "brand.logo with ../",
    config({ brand: { title: "t", logo: "../logo.svg" } }),
    "brand.logo",
    "../logo.svg",
    "{parent}/logo.svg",
  ],
  ["sources[].path with ../", sources({ path: "../index" }), "sources[0].path", "../index", "{parent}/index"],
  [
    "sources[].path as an absolute ancestor",
    sources({ path: "index" }, { path: "/" }),
    "sources[1].path",
    "/",
    "/",
  ],
  [
    "css with sub/../../x",
    config({ css: "styles/../../x.css" }),
    "css",
    "styles/../../x.css",
    "{parent}/x.css",
  ],
];
const pathRules: ConformanceCase[] = [
  ...escapes.map(([what, json, keyPath, raw, resolved]) =>
    refuse(
      `PATH_ESCAPE: ${what}`,
      json,
      "PATH_ESCAPE",
      keyPath,
      `${keyPath} ${q(raw)} resolves to ${resolved}, outside the config directory {dir}`,
      beyondSchema,
    ),
  ),
  onDisk(
    ["docs/", "site.css", "public/", "assets/logo.svg"],
    accept(
      "paths resolve against the config's directory",
      config({
        sources: [{ path: "./index/" }, { path: "." }],
        docs: "docs",
        css: "styles/../site.css",
        publicDir: "public",
        brand: { title: "t", logo: "assets/logo.svg" },
      }),
      {
        parsed: (dir) => ({
          sources: [
            { path: `${dir}/index`, rawPath: "./index/" },
            { path: dir, rawPath: "." },
          ],
          docs: `${dir}/docs`,
          css: `${dir}/site.css`,
          publicDir: `${dir}/public`,
          brand: { logo: `${dir}/assets/logo.svg` },
        }),
      },
    ),
  ),
  onDisk(
    ["..site.css"],
    accept("a name starting with two dots stays inside", config({ css: "..site.css" }), {
      parsed: (dir) => ({ css: `${dir}/..site.css` }),
    }),
  ),
];

/** What the path keys name on disk: checked by the loader after the file parses (the schema, like
 *  `parseCatalogConfig`, sees only the text and accepts every row here). */
const logo = (path: string) => config({ brand: { title: "t", logo: path } });
const missing: (readonly [JsonObject, string, string])[] = [
  [config({ css: "no.css" }), "css", "no.css"],
  [logo("assets/no.svg"), "brand.logo", "assets/no.svg"],
  [config({ docs: "no-docs" }), "docs", "no-docs"],
  [config({ publicDir: "no-public" }), "publicDir", "no-public"],
];
const wrongKind: (readonly [JsonObject, string, string, string])[] = [
  [config({ css: "styles" }), "css", "styles", "a directory, not a file"],
  [logo("assets"), "brand.logo", "assets", "a directory, not a file"],
  [config({ docs: "README.md" }), "docs", "README.md", "a file, not a directory"],
  [config({ publicDir: "README.md" }), "publicDir", "README.md", "a file, not a directory"],
];
/** Each path key naming, through a link, something outside the config directory. */
const linkedOut: (readonly [string, JsonObject, Record<string, string>, string, string, string])[] = [
  [
    "a path source that is a link to the parent directory",
    sources({ path: "linked-index", root: true }),
    { "linked-index": ".." },
    "sources[0].path",
    "linked-index",
    "{parent}",
  ],
  [
    "a path source below a link out, that does not exist",
    sources({ path: "index" }, { path: "up/elsewhere/index" }),
    { up: ".." },
    "sources[1].path",
    "up/elsewhere/index",
    "{parent}/elsewhere/index",
  ],
  [
    "docs that is a link to /",
    config({ docs: "linked-docs" }),
    { "linked-docs": "/" },
    "docs",
    "linked-docs",
    "/",
  ],
  [
    "css that is a link to a file outside",
    config({ css: "site.css" }),
    { "site.css": "/etc/passwd" },
    "css",
    "site.css",
    "/etc/passwd",
  ],
  [
    "brand.logo inside a linked directory",
    logo("art/passwd"),
    { art: "/etc" },
    "brand.logo",
    "art/passwd",
    "/etc/passwd",
  ],
  [
    "publicDir that is a link to /etc",
    config({ publicDir: "public" }),
    { public: "/etc" },
    "publicDir",
    "public",
    "/etc",
  ],
];
const diskRules: ConformanceCase[] = [
  ...missing.map(([json, keyPath, raw]) =>
    refuse(
      `MISSING_FILE: ${keyPath} names a path that does not exist`,
      json,
      "MISSING_FILE",
      keyPath,
      `${keyPath} ${q(raw)} resolves to {dir}/${raw}, which does not exist`,
    ),
  ),
  {
    rule: "MISSING_FILE: css is a link to nothing",
    input: { json: config({ css: "site.css" }), symlinks: { "site.css": "nowhere.css" } },
    expect: {
      refused: {
        code: "MISSING_FILE",
        keyPath: "css",
        message: 'css "site.css" resolves to {dir}/site.css, which does not exist',
      },
    },
  },
  ...wrongKind.map(([json, keyPath, raw, what]) =>
    onDisk(
      ["styles/", "assets/", "README.md"],
      refuse(
        `READ_ERROR: ${keyPath} names ${what.replace(", not", " instead of")}`,
        json,
        "READ_ERROR",
        keyPath,
        `${keyPath} ${q(raw)} resolves to {dir}/${raw}, which is ${what}`,
      ),
    ),
  ),
  ...linkedOut.map(([what, json, symlinks, keyPath, raw, real]) => ({
    rule: `PATH_ESCAPE by real path: ${what}`,
    input: { json, paths: ["index/"], symlinks },
    expect: {
      refused: {
        code: "PATH_ESCAPE" as const,
        keyPath,
        message: `${keyPath} ${q(raw)} resolves to {dir}/${raw}, whose real path ${real} is outside the config directory {dir}`,
      },
    },
  })),
  {
    rule: "a link that stays inside the config directory is followed",
    input: {
      json: config({ sources: [{ path: "current" }], docs: "here/docs", css: "here/site.css" }),
      paths: ["docs/", "site.css"],
      symlinks: { current: ".", here: "." },
    },
    expect: {
      accepted: {
        parsed: (dir) => ({
          sources: [{ path: `${dir}/current` }],
          docs: `${dir}/here/docs`,
          css: `${dir}/here/site.css`,
        }),
      },
    },
  },
];

const favicons: ConformanceCase[] = [
  accept(
    "favicon is an href, not a file path: no containment check, kept as written",
    config({ favicon: "../shared/icon.svg" }),
    { parsed: () => ({ favicon: "../shared/icon.svg" }) },
  ),
  accept("favicon may be an absolute URL", config({ favicon: "https://cdn.example.com/icon.png" }), {
    parsed: () => ({ favicon: "https://cdn.example.com/icon.png" }),
  }),
];

const defaults: ConformanceCase[] = [
  accept("defaults: a minimal file leaves every optional key absent", base(), {
    parsed: (dir) => ({
      file: `${dir}/catalog.config.json`,
      dir,
      sources: [{ kind: "path", index: 0, path: `${dir}/index`, rawPath: "index" }],
      brand: { title: "Acme tools" },
    }),
    absent: [
      "$schema",
      "configVersion",
      "nav",
      "footer",
      "docs",
      "docsNav",
      "css",
      "publicDir",
      "ci",
      "siteUrl",
      "ownerUrl",
      "description",
      "favicon",
      "brand.wordmark",
      "brand.logo",
      "sources.0.label",
      "sources.0.root",
      "sources.0.default",
      "sources.0.excludeFromAll",
      "sources.0.ownerUrl",
    ],
  }),
  accept(
    "$schema is accepted and not kept",
    config({ $schema: "./node_modules/@pkg/catalog/schema/catalog.config.schema.json" }),
    {
      absent: ["$schema"],
    },
  ),
];

const complete: ConformanceCase[] = [
  onDisk(
    ["assets/logo.svg", "docs/", "theme.css", "public/"],
    accept(
      "a complete file with every key",
      {
        $schema: "https://schemas.pkg-tools.dev/catalog.config.schema.json",
        configVersion: 1,
        sources: [
          { path: "index", root: true },
          {
            url: "https://index.example.org/",
            label: "partner",
            ownerUrl: "https://forge.example.org/{login}",
          },
          {
            git: "https://example.com/third/index.git",
            ref: "main",
            dir: "index",
            label: "third",
            excludeFromAll: true,
          },
        ],
        brand: { title: "Acme tools", wordmark: "acme", logo: "assets/logo.svg" },
        nav: [
          { text: "Home", link: "https://acme.example.com" },
          { text: "About", link: "/about/" },
        ],
        footer: { links: [{ text: "Source", link: "https://example.com/acme/index" }] },
        docs: "docs",
        docsNav: [
          { text: "Guide", link: "/docs/" },
          { text: "Reference", link: "/docs/reference/" },
        ],
        css: "theme.css",
        publicDir: "public",
        ci: { forge: "github", packageManager: "bun", verifyCi: true, schedule: "0 3 * * *" },
        siteUrl: "https://tools.acme.example.com",
        ownerUrl: "https://github.com/{login}",
        description: "Command-line tools published by Acme.",
        favicon: "/favicon.svg",
      },
      {
        parsed: (dir) => ({
          sources: [
            { kind: "path", index: 0, path: `${dir}/index`, rawPath: "index", root: true },
            {
              kind: "url",
              index: 1,
              url: "https://index.example.org",
              label: "partner",
              ownerUrl: "https://forge.example.org/{login}",
            },
            {
              kind: "git",
              index: 2,
              git: "https://example.com/third/index.git",
              ref: "main",
              dir: "index",
              label: "third",
              excludeFromAll: true,
            },
          ],
          brand: { title: "Acme tools", wordmark: "acme", logo: `${dir}/assets/logo.svg` },
          nav: [
            { text: "Home", link: "https://acme.example.com" },
            { text: "About", link: "/about/" },
          ],
          footer: { links: [{ text: "Source", link: "https://example.com/acme/index" }] },
          docs: `${dir}/docs`,
          docsNav: [
            { text: "Guide", link: "/docs/" },
            { text: "Reference", link: "/docs/reference/" },
          ],
          css: `${dir}/theme.css`,
          publicDir: `${dir}/public`,
          ci: { forge: "github", packageManager: "bun", verifyCi: true, schedule: "0 3 * * *" },
          siteUrl: "https://tools.acme.example.com",
          ownerUrl: "https://github.com/{login}",
          description: "Command-line tools published by Acme.",
          favicon: "/favicon.svg",
        }),
      },
    ),
  ),
  accept(
    "a complete file without a root source names its default",
    {
      sources: [
        { url: "https://a.example.com", label: "a" },
        { url: "https://b.example.com", label: "b", default: true },
      ],
      brand: { title: "Two indexes" },
      ci: { forge: "gitlab" },
    },
    { parsed: () => ({ sources: [{ label: "a" }, { label: "b", default: true }], ci: { forge: "gitlab" } }) },
  ),
];

export const conformanceCases: ConformanceCase[] = [
  ...files,
  ...version,
  ...unknownKeys,
  ...emptyStrings,
  ...types,
  ...required,
  ...sourceRules,
  ...gitDirRules,
  ...urlRules,
  ...credentialCases,
  ...siteUrls,
  ...ownerUrls,
  ...linkRules,
  ...docsRules,
  ...ciRules,
  ...pathRules,
  ...diskRules,
  ...favicons,
  ...defaults,
  ...complete,
];
