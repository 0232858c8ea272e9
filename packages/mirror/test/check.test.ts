import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openRegistry } from "@pkg/oci";
import {
  type RunningRegistry,
  runCli,
  startRegistry,
  type TempDir,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { forgeRelease, startForge } from "./support/forge.js";
import { publishIndexes } from "./support/publish-indexes.js";
import { startSimpleIndex } from "./support/simple-index.js";
import { pythonSpec } from "./support/spec-case.js";
import { buildWheel } from "./support/wheels.js";

const bin = fileURLToPath(new URL("../bin/pkg-mirror.js", import.meta.url));

let work: TempDir;
let registry: RunningRegistry;
let forge: TestServer;

function release(tag: string, assets: string[], flags: { draft?: boolean; prerelease?: boolean } = {}) {
  return forgeRelease(
    tag,
    assets.map((name) => ({ name, url: `https://downloads.example/${tag}/${name}` })),
    flags,
  );
}

const all = (v: string) => [
  `tool-${v}-linux-amd64.tgz`,
  `tool-${v}-linux-arm64.tgz`,
  `tool-${v}-darwin-arm64.tgz`,
];

// newest first, as the forge lists them; two per page so the listing pages
const releases = [
  release("v2.1.0", all("2.1.0"), { draft: true }),
  release("v2.0.0", [...all("2.0.0"), "tool-2.0.0-linux-amd64.tgz.sbom"]),
  release("v2.0.0-rc1", all("2.0.0-rc1"), { prerelease: true }),
  release("v1.2.0", all("1.2.0")),
  release("v1.1.0", all("1.1.0")),
  release("v1.0.0", ["tool-1.0.0-linux-amd64.tgz", "tool-1.0.0-linux-arm64.tgz"]),
  release("v0.9.0", all("0.9.0")),
];

beforeAll(async () => {
  work = await tempDir("pkg-mirror-check-");
  await mkdir(join(work.path, ".git"));
  forge = await startForge({ repo: "acme/tool", releases, perPage: 2 });
  registry = await startRegistry();
  await publishIndexes(openRegistry({ host: registry.host, repository: "acme/tool" }), [
    { tags: ["1.0.0", "1.0.0_20250101120000"], platforms: ["linux/amd64", "linux/arm64"] },
    { tags: ["1.1.0", "1.1.0_20250201120000", "1.1", "1", "latest"], platforms: ["linux/amd64"] },
    { tags: ["musl-1.1.0"], platforms: ["linux/amd64+libc.musl"] },
  ]);
}, 60_000);

afterAll(async () => {
  await forge?.stop();
  await registry?.stop();
  await work?.remove();
});

function forgeSpec(extra: Record<string, unknown> = {}): string {
  return stringify({
    name: "tool",
    target: { registry: registry.host, repository: "acme/tool" },
    source: { type: "forgeone_release", owner: "acme", repo: "tool" },
    versions: { min: "1.0.0" },
    assets: {
      "linux/amd64": ["^tool-.*-linux-amd64\\.tgz"],
      "linux/arm64": ["^tool-.*-linux-arm64\\.tgz$"],
      "darwin/arm64": ["darwin-arm64"],
    },
    platforms: {
      "linux/amd64": { runner: "ubuntu-24.04" },
      "linux/arm64": {
        runner: "ubuntu-24.04-arm",
        exclude: [{ version: "1.2.0", reason: "crashes at start" }],
      },
      "darwin/arm64": { runner: "macos-15", min_version: "1.1.0" },
    },
    ...extra,
  });
}

async function check(name: string, yaml: string, args: string[] = []) {
  await writeFile(join(work.path, name), yaml);
  return runCli(bin, ["package", "check", name, ...args], {
    cwd: work.path,
    env: { PKG_FORGEONE_API_URL: forge.url },
  });
}

describe("pkg-mirror package check", () => {
  it("reports exactly the missing pairs of published versions and the new ones, then exits 65 on an ambiguity", async () => {
    const result = await check("forge.yml", forgeSpec(), ["--format", "json"]);
    expect(result.code, result.stderr).toBe(65);
    expect(result.stderr).toContain(
      "ambiguous asset: version 2.0.0 platform linux/amd64: the assets regexes match 2 assets: tool-2.0.0-linux-amd64.tgz, tool-2.0.0-linux-amd64.tgz.sbom",
    );
    expect(result.stderr).toContain("listing releases of acme/tool: page 4");
    const report = JSON.parse(result.stdout);
    expect(report.versions_resolved).toEqual({ min: "1.0.0", min_inclusive: true, max_inclusive: false });
    expect(report.columns).toEqual(["linux/amd64", "linux/arm64", "darwin/arm64"]);
    const table = Object.fromEntries(
      report.rows.map(
        (row: { version: string; cells: Record<string, { state: string; reason?: string }> }) => [
          row.version,
          report.columns.map((c: string) => {
            const cell = row.cells[c];
            return cell === undefined ? "-" : cell.reason ? `${cell.state}: ${cell.reason}` : cell.state;
          }),
        ],
      ),
    );
    expect(table).toEqual({
      "2.0.0": ["ambiguous", "new", "new"],
      "2.0.0-rc1": ["new", "new", "new"],
      "1.2.0": ["new", "excluded: crashes at start", "new"],
      "1.1.0": ["published", "missing", "missing"],
      "1.0.0": ["published", "published", "-"],
    });
    expect(Object.keys(table)).toEqual(["2.0.0", "2.0.0-rc1", "1.2.0", "1.1.0", "1.0.0"]);
  });

  it("prints the table for one version and exits 0 when that version is unambiguous", async () => {
    const result = await check("forge.yml", forgeSpec(), ["--version", "1.1.0"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        "version  linux/amd64  linux/arm64  darwin/arm64",
        "1.1.0    published    missing      missing",
        "1 version: 2 missing, 1 published",
        "",
      ].join("\n"),
    );
  });

  it("--latest reports the newest release inside the window", async () => {
    const result = await check(
      "skip.yml",
      forgeSpec({ skip_prereleases: true, versions: { max: "2.0.0" } }),
      ["--latest", "--format", "json"],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).rows.map((r: { version: string }) => r.version)).toEqual(["1.2.0"]);
  });

  it("prints the resolved edge of a non-literal bound and refuses a version outside the window", async () => {
    await writeFile(join(work.path, "min.txt"), "1.1.0\n");
    const yaml = forgeSpec({ versions: { min: { version: { file: "min.txt" }, inclusive: false } } });
    const result = await check("file-min.yml", yaml, ["--version", "1.2.0"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe("resolved min 1.1.0 (exclusive)");
    const outside = await check("file-min.yml", yaml, ["--version", "1.0.0"]);
    expect(outside.code).toBe(65);
    expect(outside.stderr.trim().split("\n").at(-1)).toBe(
      "pkg-mirror: version 1.0.0 is outside the version window",
    );
  });

  it("reads a url_index spec's inline versions, with a variant's tags", async () => {
    const yaml = stringify({
      name: "tool",
      target: { registry: registry.host, repository: "acme/tool" },
      source: {
        type: "url_index",
        versions: {
          "1.1.0": {
            assets: {
              "tool-gnu.tgz": "https://dl.example/1.1.0/tool-gnu.tgz",
              "tool-musl.tgz": "https://dl.example/1.1.0/tool-musl.tgz",
            },
          },
          "1.3.0": { assets: { "tool-gnu.tgz": "https://dl.example/1.3.0/tool-gnu.tgz" } },
        },
      },
      variants: [
        { default: true, assets: { "linux/amd64": ["gnu"] } },
        { name: "musl", assets: { "linux/amd64+libc.musl": ["musl"] } },
      ],
    });
    const result = await check("index.yml", yaml);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      [
        "version  linux/amd64  musl:linux/amd64+libc.musl",
        "1.3.0    new          absent",
        "1.1.0    published    published",
        "2 versions: 1 new, 2 published, 1 absent",
        "",
      ].join("\n"),
    );
  });

  it("lists a pypi source's non-yanked versions from its index (the first that has the project)", async () => {
    const wheelDir = join(work.path, "wheels");
    await mkdir(wheelDir, { recursive: true });
    const files = [
      { wheel: await buildWheel(wheelDir, { name: "pycowsay", version: "0.0.0.1" }) },
      { wheel: await buildWheel(wheelDir, { name: "pycowsay", version: "0.0.0.2" }) },
      { wheel: await buildWheel(wheelDir, { name: "pycowsay", version: "0.1.0" }), yanked: true },
    ];
    const empty = await startSimpleIndex({ flavour: "json", projects: {} });
    const index = await startSimpleIndex({ flavour: "html", projects: { pycowsay: files } });
    try {
      const yaml = pythonSpec({
        target: { registry: registry.host, repository: "acme/pycowsay" },
        source: { type: "pypi", indexes: [{ url: empty.base }, { url: index.base }] },
        wheels: { "linux/amd64": null, "linux/arm64+libc.musl": null },
        platforms: { "linux/amd64": { runner: "x" }, "linux/arm64": { runner: "y" } },
      });
      const result = await check("py.yml", yaml, ["--format", "json"]);
      expect(result.stderr).toContain(`${empty.base}pycowsay/: 404, trying the next index`);
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report.upstream_versions).toBe(2);
      expect(report.rows.map((r: { version: string }) => r.version)).toEqual(["0.0.0.2", "0.0.0.1"]);
      // one column per wheels key, as written
      const text = await check("py.yml", yaml);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toBe(
        [
          "version  linux/amd64  linux/arm64+libc.musl",
          "0.0.0.2  new          new",
          "0.0.0.1  new          new",
          "2 versions: 4 new",
          "",
        ].join("\n"),
      );
    } finally {
      await empty.stop();
      await index.stop();
    }
  });
});
