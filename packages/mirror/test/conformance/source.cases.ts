import { expect } from "vitest";
import { compileRegex } from "../../src/spec/regex.js";
import { DEFAULT_TAG_PATTERN } from "../../src/spec/source-forgeone.js";
import { rewriteUrl, type UrlRewrite } from "../../src/spec/url-rewrite.js";
import type { Fields } from "../support/spec-case.js";
import { type ConformanceCase, LOCK_FILE, pythonSpec, spec } from "../support/spec-case.js";

const forge = (fields: Fields = {}) =>
  spec({ source: { type: "forgeone_release", owner: "acme", repo: "tool", ...fields } });
const urlIndex = (fields: Fields) => spec({ source: { type: "url_index", ...fields } });
const pypi = (fields: Fields = {}) => pythonSpec({ source: { type: "pypi", ...fields } });
const pylock = (fields: Fields = {}) =>
  pythonSpec({ source: { type: "pylock", path: "pylock.toml", ...fields } });
const source = (s: Record<string, unknown>) => s.source as Record<string, unknown>;
const hex = "ab".repeat(32);
const secret = "hunter2secret";
/** A message that says credentials are refused and does not echo the secret. */
const refusesCredentials = new RegExp(`^(?!.*${secret}).*embeds credentials`);

function versionGroups(pattern: string, tag: string): Record<string, string | null> | undefined {
  const re = compileRegex(pattern);
  if ("problem" in re) throw new Error(re.problem);
  const m = re.matcher(tag);
  return m.matches() ? { version: m.group("version"), prerelease: m.group("prerelease") } : undefined;
}

export const cases: ConformanceCase[] = [
  // source and its type
  {
    rule: "source: required",
    yaml: spec({ source: undefined }),
    exit: 65,
    path: "",
    message: /missing required key "source"/,
  },
  {
    rule: "source: must be a mapping",
    yaml: spec({ source: "forgeone_release" }),
    exit: 65,
    path: "source",
    message: /expected a mapping/,
  },
  {
    rule: "source.type: required",
    yaml: spec({ source: { owner: "acme", repo: "tool" } }),
    exit: 65,
    path: "source",
    message: /missing required key "type"/,
  },
  {
    rule: "source.type: one of forgeone_release, url_index, pylock, pypi",
    yaml: spec({ source: { type: "github_release", owner: "acme", repo: "tool" } }),
    exit: 65,
    path: "source.type",
    message: /expected one of "forgeone_release", "url_index", "pylock", "pypi"/,
  },
  {
    rule: "source.type: a near miss names the closest type",
    yaml: spec({ source: { type: "forgeone_releases", owner: "acme", repo: "tool" } }),
    exit: 65,
    path: "source.type",
    message: /did you mean "forgeone_release"/,
  },
  {
    rule: "source: a key of another type is refused, naming its type",
    yaml: forge({ indexes: [{ url: "https://pypi.org/simple/" }] }),
    exit: 65,
    path: "source.indexes",
    message: /belongs to source type pypi, not forgeone_release/,
  },
  {
    rule: "source: path belongs to pylock only",
    yaml: urlIndex({ url: "https://example.com/index.json", path: "index.json" }),
    exit: 65,
    path: "source.path",
    message: /belongs to source type pylock, not url_index/,
  },
  {
    rule: "source: owner belongs to forgeone_release only",
    yaml: pypi({ owner: "acme" }),
    exit: 65,
    path: "source.owner",
    message: /belongs to source type forgeone_release, not pypi/,
  },
  {
    rule: "source: package belongs to the Python types only",
    yaml: forge({ package: "tool" }),
    exit: 65,
    path: "source.package",
    message: /belongs to source type pylock or pypi/,
  },
  {
    rule: "source: unknown keys are refused, naming the closest key of the type",
    yaml: forge({ tag_patern: "^(?P<version>.*)$" }),
    exit: 65,
    path: "source.tag_patern",
    message: /unknown key "tag_patern" \(did you mean "tag_pattern"\?\)/,
  },
  {
    rule: "source: a key no type knows is refused",
    yaml: forge({ token: "x" }),
    exit: 65,
    path: "source.token",
    message: /unknown key "token"/,
  },
  // forgeone_release
  {
    rule: "forgeone_release: owner and repo load; tag_pattern defaults to v?X.Y.Z with an optional pre-release",
    yaml: forge(),
    exit: 0,
    check: (s) => {
      expect(source(s)).toEqual({
        type: "forgeone_release",
        owner: "acme",
        repo: "tool",
        tag_pattern: DEFAULT_TAG_PATTERN,
      });
      expect(versionGroups(DEFAULT_TAG_PATTERN, "v1.2.3")).toEqual({ version: "1.2.3", prerelease: null });
      expect(versionGroups(DEFAULT_TAG_PATTERN, "1.2.3-rc1")).toEqual({
        version: "1.2.3",
        prerelease: "rc1",
      });
      expect(versionGroups(DEFAULT_TAG_PATTERN, "release-1.2")).toBeUndefined();
    },
  },
  {
    rule: "forgeone_release.owner: required",
    yaml: spec({ source: { type: "forgeone_release", repo: "tool" } }),
    exit: 65,
    path: "source",
    message: /missing required key "owner"/,
  },
  {
    rule: "forgeone_release.repo: required",
    yaml: spec({ source: { type: "forgeone_release", owner: "acme" } }),
    exit: 65,
    path: "source",
    message: /missing required key "repo"/,
  },
  {
    rule: "forgeone_release.owner: an owner name, not owner/repo",
    yaml: forge({ owner: "acme/tool" }),
    exit: 65,
    path: "source.owner",
    message: /forge owner name/,
  },
  {
    rule: "forgeone_release.owner: a string",
    yaml: forge({ owner: 42 }),
    exit: 65,
    path: "source.owner",
    message: /expected a string/,
  },
  {
    rule: "forgeone_release.repo: a repository name",
    yaml: forge({ repo: ".." }),
    exit: 65,
    path: "source.repo",
    message: /forge repository name/,
  },
  {
    rule: "forgeone_release.tag_pattern: RE2 with (?P<version>) and (?i) as users write it",
    yaml: forge({ tag_pattern: "(?i)^release-(?P<version>\\d+\\.\\d+)(?:-(?P<prerelease>\\w+))?$" }),
    exit: 0,
    check: (s) => {
      const pattern = source(s).tag_pattern as string;
      expect(versionGroups(pattern, "RELEASE-2.1-beta")).toEqual({ version: "2.1", prerelease: "beta" });
    },
  },
  {
    rule: "forgeone_release.tag_pattern: must hold the named group version",
    yaml: forge({ tag_pattern: "^v(\\d+\\.\\d+\\.\\d+)$" }),
    exit: 65,
    path: "source.tag_pattern",
    message: /named group \(\?P<version>\.\.\.\)/,
  },
  {
    rule: "forgeone_release.tag_pattern: a prerelease group alone is not enough",
    yaml: forge({ tag_pattern: "^v\\d+-(?P<prerelease>\\w+)$" }),
    exit: 65,
    path: "source.tag_pattern",
    message: /\(\?P<version>/,
  },
  {
    rule: "forgeone_release.tag_pattern: a regex that does not compile is refused",
    yaml: forge({ tag_pattern: "^v(?P<version>\\d+" }),
    exit: 65,
    path: "source.tag_pattern",
    message: /invalid regular expression \(RE2 syntax\): missing closing \)/,
  },
  {
    rule: "forgeone_release.tag_pattern: backtracking-only syntax (lookahead) is not RE2",
    yaml: forge({ tag_pattern: "^v(?P<version>\\d+)(?=-)" }),
    exit: 65,
    path: "source.tag_pattern",
    message: /invalid regular expression/,
  },
  {
    rule: "forgeone_release.tag_pattern: not empty",
    yaml: forge({ tag_pattern: "" }),
    exit: 65,
    path: "source.tag_pattern",
    message: /must not be empty/,
  },
  {
    rule: "forgeone_release.tag_pattern: a string",
    yaml: forge({ tag_pattern: ["^v(?P<version>.*)$"] }),
    exit: 65,
    path: "source.tag_pattern",
    message: /expected a string/,
  },
  // url_index
  {
    rule: "url_index.url: an http(s) URL, kept as written",
    yaml: urlIndex({ url: "https://Example.com/tools/index.json" }),
    exit: 0,
    check: (s) =>
      expect(source(s)).toEqual({ type: "url_index", url: "https://Example.com/tools/index.json" }),
  },
  {
    rule: "url_index: one of url, versions, generator is required",
    yaml: urlIndex({}),
    exit: 65,
    path: "source",
    message: /needs one of "url", "versions", "generator"/,
  },
  {
    rule: "url_index: only one of url, versions, generator",
    yaml: urlIndex({ url: "https://example.com/index.json", generator: { command: ["./gen"] } }),
    exit: 65,
    path: "source",
    message: /takes only one of/,
  },
  {
    rule: "url_index.url: userinfo is refused without echoing it",
    yaml: urlIndex({ url: `https://bot:${secret}@example.com/index.json` }),
    exit: 65,
    path: "source.url",
    message: refusesCredentials,
  },
  {
    rule: "url_index.url: http or https only",
    yaml: urlIndex({ url: "ftp://example.com/index.json" }),
    exit: 65,
    path: "source.url",
    message: /scheme must be http or https/,
  },
  {
    rule: "url_index.url: a URL, not a bare host",
    yaml: urlIndex({ url: "example.com/index.json" }),
    exit: 65,
    path: "source.url",
    message: /expected an http:\/\/ or https:\/\/ URL/,
  },
  {
    rule: "url_index.generator: command kept, working_directory kept, timeout_seconds defaults to 60",
    yaml: urlIndex({ generator: { command: ["uv", "run", "generate.py"], working_directory: "scripts" } }),
    files: { "scripts/generate.py": "print('{}')\n" },
    exit: 0,
    check: (s) =>
      expect(source(s).generator).toEqual({
        command: ["uv", "run", "generate.py"],
        working_directory: "scripts",
        timeout_seconds: 60,
      }),
  },
  {
    rule: "url_index.generator.working_directory: must exist, relative to the spec's directory",
    yaml: urlIndex({ generator: { command: ["./gen"], working_directory: "scripts" } }),
    exit: 65,
    path: "source.generator.working_directory",
    message: /working directory "scripts" not found \(the path is relative to the spec's directory /,
  },
  {
    rule: "url_index.generator.working_directory: a file is not a directory",
    yaml: urlIndex({ generator: { command: ["./gen"], working_directory: "gen.sh" } }),
    files: { "gen.sh": "#!/bin/sh\n" },
    exit: 65,
    path: "source.generator.working_directory",
    message: /working directory "gen.sh" not found/,
  },
  {
    rule: "url_index.generator.timeout_seconds: a positive whole number",
    yaml: urlIndex({ generator: { command: ["./gen"], timeout_seconds: 120 } }),
    exit: 0,
    check: (s) => expect(source(s).generator).toEqual({ command: ["./gen"], timeout_seconds: 120 }),
  },
  {
    rule: "url_index.generator.timeout_seconds: zero is refused",
    yaml: urlIndex({ generator: { command: ["./gen"], timeout_seconds: 0 } }),
    exit: 65,
    path: "source.generator.timeout_seconds",
    message: /at least 1/,
  },
  {
    rule: "url_index.generator.timeout_seconds: a number, not a string",
    yaml: urlIndex({ generator: { command: ["./gen"], timeout_seconds: "60s" } }),
    exit: 65,
    path: "source.generator.timeout_seconds",
    message: /expected a whole number/,
  },
  {
    rule: "url_index.generator.command: required",
    yaml: urlIndex({ generator: { working_directory: "scripts" } }),
    exit: 65,
    path: "source.generator",
    message: /missing required key "command"/,
  },
  {
    rule: "url_index.generator.command: a list, not a shell string",
    yaml: urlIndex({ generator: { command: "uv run generate.py" } }),
    exit: 65,
    path: "source.generator.command",
    message: /expected a list/,
  },
  {
    rule: "url_index.generator.command: not empty",
    yaml: urlIndex({ generator: { command: [] } }),
    exit: 65,
    path: "source.generator.command",
    message: /at least one entry/,
  },
  {
    rule: "url_index.generator.command: every entry a non-empty string",
    yaml: urlIndex({ generator: { command: ["uv", ""] } }),
    exit: 65,
    path: "source.generator.command[1]",
    message: /must not be empty/,
  },
  {
    rule: "url_index.generator.command: entries are strings",
    yaml: urlIndex({ generator: { command: [1, "x"] } }),
    exit: 65,
    path: "source.generator.command[0]",
    message: /expected a string/,
  },
  {
    rule: "url_index.generator: unknown keys are refused",
    yaml: urlIndex({ generator: { command: ["./gen"], cwd: "scripts" } }),
    exit: 65,
    path: "source.generator.cwd",
    message: /unknown key "cwd"/,
  },
  {
    rule: "url_index.versions: inline document; asset forms mix; digests normalised to sha256:<hex>",
    yaml: urlIndex({
      versions: {
        "1.2.3": {
          assets: {
            "tool-linux-amd64.tar.gz": "https://example.com/1.2.3/tool-linux-amd64.tar.gz",
            "tool-linux-arm64.tar.gz": {
              url: "https://example.com/1.2.3/tool-linux-arm64.tar.gz",
              sha256: hex.toUpperCase(),
            },
          },
        },
        "1.3.0-rc1": {
          prerelease: true,
          assets: { "tool.tar.gz": { url: "https://example.com/rc/tool.tar.gz", sha256: `sha256:${hex}` } },
        },
      },
    }),
    exit: 0,
    check: (s) =>
      expect(source(s).versions).toEqual({
        "1.2.3": {
          assets: {
            "tool-linux-amd64.tar.gz": { url: "https://example.com/1.2.3/tool-linux-amd64.tar.gz" },
            "tool-linux-arm64.tar.gz": {
              url: "https://example.com/1.2.3/tool-linux-arm64.tar.gz",
              sha256: `sha256:${hex}`,
            },
          },
        },
        "1.3.0-rc1": {
          prerelease: true,
          assets: { "tool.tar.gz": { url: "https://example.com/rc/tool.tar.gz", sha256: `sha256:${hex}` } },
        },
      }),
  },
  {
    rule: "url_index.versions: sha256 is required in the object form",
    yaml: urlIndex({
      versions: { "1.2.3": { assets: { "tool.tgz": { url: "https://example.com/tool.tgz" } } } },
    }),
    exit: 65,
    path: "source.versions.1.2.3.assets.tool.tgz",
    message: /missing required key "sha256"/,
  },
  {
    rule: "url_index.versions: a malformed digest fails at load",
    yaml: urlIndex({
      versions: {
        "1.2.3": { assets: { "tool.tgz": { url: "https://example.com/tool.tgz", sha256: hex.slice(1) } } },
      },
    }),
    exit: 65,
    path: "source.versions.1.2.3.assets.tool.tgz.sha256",
    message: /not a sha256 digest/,
  },
  {
    rule: "url_index.versions: a digest of another algorithm is refused",
    yaml: urlIndex({
      versions: {
        "1.2.3": { assets: { "tool.tgz": { url: "https://example.com/tool.tgz", sha256: `sha512:${hex}` } } },
      },
    }),
    exit: 65,
    path: "source.versions.1.2.3.assets.tool.tgz.sha256",
    message: /not a sha256 digest/,
  },
  {
    rule: "url_index.versions: the object form has only url and sha256",
    yaml: urlIndex({
      versions: {
        "1.2.3": { assets: { "tool.tgz": { url: "https://example.com/tool.tgz", sha256: hex, size: 10 } } },
      },
    }),
    exit: 65,
    path: "source.versions.1.2.3.assets.tool.tgz.size",
    message: /unknown key "size"/,
  },
  {
    rule: "url_index.versions: an asset value is a URL or {url, sha256}",
    yaml: urlIndex({ versions: { "1.2.3": { assets: { "tool.tgz": ["https://example.com/tool.tgz"] } } } }),
    exit: 65,
    path: "source.versions.1.2.3.assets.tool.tgz",
    message: /expected the asset's URL or a mapping \{url, sha256\}/,
  },
  {
    rule: "url_index.versions: an asset URL with userinfo is refused",
    yaml: urlIndex({
      versions: { "1.2.3": { assets: { "tool.tgz": `https://u:${secret}@example.com/tool.tgz` } } },
    }),
    exit: 65,
    path: "source.versions.1.2.3.assets.tool.tgz",
    message: refusesCredentials,
  },
  {
    rule: "url_index.versions: an entry has only prerelease and assets",
    yaml: urlIndex({ versions: { "1.2.3": { date: "2025-01-01", assets: {} } } }),
    exit: 65,
    path: "source.versions.1.2.3.date",
    message: /unknown key "date"/,
  },
  {
    rule: "url_index.versions: an entry needs assets",
    yaml: urlIndex({ versions: { "1.2.3": { prerelease: false } } }),
    exit: 65,
    path: "source.versions.1.2.3",
    message: /missing required key "assets"/,
  },
  {
    rule: "url_index.versions: prerelease is a boolean",
    yaml: urlIndex({ versions: { "1.2.3": { prerelease: "yes", assets: {} } } }),
    exit: 65,
    path: "source.versions.1.2.3.prerelease",
    message: /expected true or false/,
  },
  {
    rule: "url_index.versions: keys are versions",
    yaml: urlIndex({ versions: { latest: { assets: {} } } }),
    exit: 65,
    path: "source.versions.latest",
    message: /invalid version "latest"/,
  },
  {
    rule: "url_index.versions: a version key without its tag prefix",
    yaml: urlIndex({ versions: { "v1.2.3": { assets: {} } } }),
    exit: 65,
    path: "source.versions.v1.2.3",
    message: /starts with "v"/,
  },
  {
    rule: "url_index.versions: an unquoted key YAML reads as a number is refused (1.10 would become 1.1)",
    yaml: urlIndex({ versions: { "1.10": { assets: {} } } }).replace('"1.10":', "1.10:"),
    exit: 65,
    path: "source.versions.1.1",
    message: /write it in quotes/,
  },
  {
    rule: "url_index.versions: must be a mapping",
    yaml: urlIndex({ versions: ["1.2.3"] }),
    exit: 65,
    path: "source.versions",
    message: /expected a mapping/,
  },
  // url_rewrite
  {
    rule: "url_rewrite: both halves normalised (scheme, host case, default port); matching uses that form",
    yaml: forge({ url_rewrite: { from: "HTTPS://GitHub.com:443/acme/", to: "http://Mirror.Local:80/gh/" } }),
    exit: 0,
    check: (s) => {
      const rewrite = source(s).url_rewrite as UrlRewrite;
      expect(rewrite).toEqual({ from: "https://github.com/acme/", to: "http://mirror.local/gh/" });
      expect(rewriteUrl("https://github.com:443/acme/tool/v1/x.tgz", rewrite)).toBe(
        "http://mirror.local/gh/tool/v1/x.tgz",
      );
      expect(rewriteUrl("https://example.com/acme/x.tgz", rewrite)).toBe("https://example.com/acme/x.tgz");
    },
  },
  {
    rule: "url_rewrite: supported on url_index",
    yaml: urlIndex({
      url: "https://example.com/i.json",
      url_rewrite: { from: "https://example.com/", to: "https://cache.local/" },
    }),
    exit: 0,
    check: (s) =>
      expect(source(s).url_rewrite).toEqual({ from: "https://example.com/", to: "https://cache.local/" }),
  },
  {
    rule: "url_rewrite.to: required",
    yaml: forge({ url_rewrite: { from: "https://github.com/" } }),
    exit: 65,
    path: "source.url_rewrite",
    message: /missing required key "to"/,
  },
  {
    rule: "url_rewrite.from: non-empty",
    yaml: forge({ url_rewrite: { from: "", to: "https://cache.local/" } }),
    exit: 65,
    path: "source.url_rewrite.from",
    message: /must not be empty/,
  },
  {
    rule: "url_rewrite.from: an http(s) prefix",
    yaml: forge({ url_rewrite: { from: "ftp://github.com/", to: "https://cache.local/" } }),
    exit: 65,
    path: "source.url_rewrite.from",
    message: /scheme must be http or https/,
  },
  {
    rule: "url_rewrite.to: an http(s) prefix",
    yaml: forge({ url_rewrite: { from: "https://github.com/", to: "cache.local/" } }),
    exit: 65,
    path: "source.url_rewrite.to",
    message: /expected an http:\/\/ or https:\/\/ URL/,
  },
  {
    rule: "url_rewrite.from: credentials are refused, not stripped, and never echoed",
    yaml: forge({ url_rewrite: { from: `https://me:${secret}@github.com/`, to: "https://cache.local/" } }),
    exit: 65,
    path: "source.url_rewrite.from",
    message: refusesCredentials,
  },
  {
    rule: "url_rewrite.to: a user name alone is a credential too",
    yaml: forge({ url_rewrite: { from: "https://github.com/", to: `https://${secret}@cache.local/` } }),
    exit: 65,
    path: "source.url_rewrite.to",
    message: refusesCredentials,
  },
  {
    rule: "url_rewrite: only from and to",
    yaml: forge({ url_rewrite: { from: "https://github.com/", to: "https://cache.local/", prefix: true } }),
    exit: 65,
    path: "source.url_rewrite.prefix",
    message: /unknown key "prefix"/,
  },
  {
    rule: "url_rewrite: must be a mapping",
    yaml: forge({ url_rewrite: "https://cache.local/" }),
    exit: 65,
    path: "source.url_rewrite",
    message: /expected a mapping/,
  },
  {
    rule: "url_rewrite: refused by name on pypi",
    yaml: pypi({ url_rewrite: { from: "https://pypi.org/", to: "https://cache.local/" } }),
    exit: 65,
    path: "source.url_rewrite",
    message: /url_rewrite is not supported for source type pypi.*source\.indexes/,
  },
  {
    rule: "url_rewrite: refused by name on pylock",
    yaml: pylock({ url_rewrite: { from: "https://files.pythonhosted.org/", to: "https://cache.local/" } }),
    files: LOCK_FILE,
    exit: 65,
    path: "source.url_rewrite",
    message: /url_rewrite is not supported for source type pylock/,
  },
  // pylock
  {
    rule: "pylock: path kept; package defaults to the spec's name",
    yaml: pylock(),
    files: LOCK_FILE,
    exit: 0,
    check: (s) => expect(source(s)).toEqual({ type: "pylock", path: "pylock.toml", package: "pycowsay" }),
  },
  {
    rule: "pylock.path: the lock must exist (exit 65, naming the path)",
    yaml: pylock({ path: "locks/pylock.toml" }),
    exit: 65,
    path: "source.path",
    message: /lock file "locks\/pylock\.toml" not found \(the path is relative to the repository root /,
  },
  {
    rule: "pylock.path: a directory is not a lock file",
    yaml: pylock({ path: "locks" }),
    files: { "locks/pylock.toml": LOCK_FILE["pylock.toml"] ?? "" },
    exit: 65,
    path: "source.path",
    message: /lock file "locks" not found/,
  },
  {
    rule: "pylock.path: a lock in a subdirectory of the repository loads",
    yaml: pylock({ path: "locks/pylock.toml" }),
    files: { "locks/pylock.toml": LOCK_FILE["pylock.toml"] ?? "" },
    exit: 0,
    check: (s) => expect(source(s).path).toBe("locks/pylock.toml"),
  },
  {
    rule: "pylock.path: required",
    yaml: pythonSpec({ source: { type: "pylock" } }),
    exit: 65,
    path: "source",
    message: /missing required key "path"/,
  },
  {
    rule: "pylock.path: relative to the repository root, not absolute",
    yaml: pylock({ path: "/etc/pylock.toml" }),
    exit: 65,
    path: "source.path",
    message: /relative to the repository root/,
  },
  {
    rule: "pylock.path: stays inside the repository",
    yaml: pylock({ path: "../other/pylock.toml" }),
    exit: 65,
    path: "source.path",
    message: /inside it/,
  },
  {
    rule: "pylock.package: a distribution name",
    yaml: pylock({ package: "-cowsay" }),
    files: LOCK_FILE,
    exit: 65,
    path: "source.package",
    message: /Python distribution name/,
  },
  // pypi
  {
    rule: "pypi: package defaults to the spec's name; indexes default to the public index",
    yaml: pypi(),
    exit: 0,
    check: (s) =>
      expect(source(s)).toEqual({
        type: "pypi",
        package: "pycowsay",
        indexes: [{ url: "https://pypi.org/simple/" }],
      }),
  },
  {
    rule: "pypi: indexes in priority order, each base kept exactly as written",
    yaml: pypi({
      package: "Py_Cowsay",
      indexes: [
        { url: "https://Internal.Example.com:443/simple" },
        { url: "http://mirror.local/pypi/simple/" },
      ],
    }),
    exit: 0,
    check: (s) =>
      expect(source(s)).toEqual({
        type: "pypi",
        package: "Py_Cowsay",
        indexes: [
          { url: "https://Internal.Example.com:443/simple" },
          { url: "http://mirror.local/pypi/simple/" },
        ],
      }),
  },
  {
    rule: "pypi.indexes: at least one index",
    yaml: pypi({ indexes: [] }),
    exit: 65,
    path: "source.indexes",
    message: /at least one entry/,
  },
  {
    rule: "pypi.indexes: entries are {url}",
    yaml: pypi({ indexes: ["https://pypi.org/simple/"] }),
    exit: 65,
    path: "source.indexes[0]",
    message: /expected a mapping/,
  },
  {
    rule: "pypi.indexes: url required",
    yaml: pypi({ indexes: [{}] }),
    exit: 65,
    path: "source.indexes[0]",
    message: /missing required key "url"/,
  },
  {
    rule: "pypi.indexes: only url",
    yaml: pypi({ indexes: [{ url: "https://pypi.org/simple/", name: "pypi" }] }),
    exit: 65,
    path: "source.indexes[0].name",
    message: /unknown key "name"/,
  },
  {
    rule: "pypi.indexes: http or https only",
    yaml: pypi({ indexes: [{ url: "https://pypi.org/simple/" }, { url: "file:///srv/simple" }] }),
    exit: 65,
    path: "source.indexes[1].url",
    message: /scheme must be http or https/,
  },
  {
    rule: "pypi.indexes: no embedded credentials",
    yaml: pypi({ indexes: [{ url: `https://__token__:${secret}@pypi.example.com/simple/` }] }),
    exit: 65,
    path: "source.indexes[0].url",
    message: refusesCredentials,
  },
  {
    rule: "skip_prereleases: defaults to false",
    yaml: forge(),
    exit: 0,
    check: (s) => expect(s.skip_prereleases).toBe(false),
  },
  {
    rule: "skip_prereleases: a boolean",
    yaml: spec({ skip_prereleases: "yes" }),
    exit: 65,
    path: "skip_prereleases",
    message: /expected true or false/,
  },
];
