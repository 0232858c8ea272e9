import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openRegistry, parseManifestDocument } from "@pkg/oci";
import {
  type CliResult,
  type FaultProxy,
  type RunningRegistry,
  runCli,
  startFaultProxy,
  startRegistry,
  type TempDir,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publish } from "../../package/test/support/cascade-repo.js";
import { type SpecObject, spec } from "./support/spec-case.js";
import { mirrorBin } from "./support/sync-run.js";

const catalogBin = fileURLToPath(new URL("../../catalog/bin/pkg-catalog.js", import.meta.url));
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4"/></svg>\n';
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);

let registry: RunningRegistry;
let proxy: FaultProxy;
let work: TempDir;

beforeAll(async () => {
  registry = await startRegistry();
  proxy = await startFaultProxy(registry.url);
  work = await tempDir("pkg-mirror-describe-");
  await mkdir(join(work.path, ".git"));
  const target = openRegistry({ host: registry.host, repository: "acme/described" }, { env: {} });
  await publish(target, "1.0.0_20250101000000", ["linux/amd64"], true);
});
afterAll(async () => {
  await proxy?.stop();
  await registry?.stop();
  await work?.remove();
});

/** A spec in its own directory `dir` with `files` beside it, publishing to acme/described behind the proxy. */
async function specDir(dir: string, files: Record<string, string | Buffer>, extra: SpecObject = {}) {
  await mkdir(join(work.path, dir), { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(work.path, dir, name), content);
  await writeFile(
    join(work.path, dir, "mirror.yml"),
    spec({
      target: { registry: proxy.host, repository: "acme/described" },
      announce: { package: "acme/described" },
      ...extra,
    }),
  );
  return join(dir, "mirror.yml");
}

function pipeline(args: string[]): Promise<CliResult> {
  return runCli(mirrorBin, ["package", "pipeline", ...args], { cwd: work.path });
}

async function describeJson(file: string): Promise<{ status: string; logo?: string; digest?: string }> {
  const result = await pipeline(["describe", "--spec", file, "--format", "json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

const writes = () => proxy.requests.filter((r) => r.method !== "GET" && r.method !== "HEAD");

async function announceAndBuild(file: string): Promise<string> {
  const project = join(work.path, "project");
  await mkdir(project, { recursive: true });
  await writeFile(
    join(project, "catalog.config.json"),
    JSON.stringify({
      sources: [{ path: "./index", root: true }],
      brand: { title: "T" },
      siteUrl: "https://x.test",
    }),
  );
  const announced = await pipeline([
    "announce",
    "--spec",
    file,
    "--out",
    join(project, "index"),
    "--label",
    "example.org",
    "--owner",
    "alice:7",
  ]);
  expect(announced.code, announced.stderr).toBe(0);
  const built = await runCli(catalogBin, ["build", "--out", "site"], { cwd: project });
  expect(built.code, built.stderr).toBe(0);
  return readFile(join(project, "site/acme/described/index.html"), "utf8");
}

describe("pkg-mirror package pipeline describe", () => {
  it("without a README: a log line, exit 0, nothing pushed", async () => {
    const file = await specDir("bare", {});
    const before = writes().length;
    const result = await pipeline(["describe", "--spec", file]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("no CATALOG.md beside the spec: nothing to describe");
    expect(writes().length).toBe(before);
    expect((await describeJson(file)).status).toBe("nothing_to_describe");
  });

  it("publishes CATALOG.md and logo.svg (svg before png), pushes nothing when unchanged, re-publishes an edit; the catalog built from the announced index shows the new README", async () => {
    const file = await specDir("tool", {
      "CATALOG.md": "# Described Tool\n\nThe first README says **hello**.\n",
      "logo.svg": LOGO_SVG,
      "logo.png": PNG,
    });
    const first = await describeJson(file);
    expect(first.status).toBe("published");
    expect(first.logo).toBe(join(work.path, "tool", "logo.svg"));
    const stored = await openRegistry(
      { host: registry.host, repository: "acme/described" },
      { env: {} },
    ).fetchManifest("__pkg.desc");
    const doc = stored && parseManifestDocument(stored.bytes, "desc");
    expect(doc?.kind === "manifest" ? doc.manifest.layers.map((l) => l.mediaType) : []).toEqual([
      "text/markdown",
      "image/svg+xml",
    ]);

    const before = writes().length;
    const again = await pipeline(["describe", "--spec", file]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("description unchanged");
    expect(writes().length).toBe(before);

    expect(await announceAndBuild(file)).toMatch(/The first README says <strong>hello<\/strong>/);

    await writeFile(
      join(work.path, "tool", "CATALOG.md"),
      "# Described Tool\n\nThe second README says **goodbye**.\n",
    );
    const edited = await describeJson(file);
    expect(edited.status).toBe("published");
    expect(edited.digest).not.toBe(first.digest);
    const html = await announceAndBuild(file);
    expect(html).toMatch(/The second README says <strong>goodbye<\/strong>/);
    expect(html).not.toContain("The first README");
  });

  it("logo bytes that are not what the extension says: exit 65, nothing pushed", async () => {
    const before = writes().length;
    const svgNamedPng = await specDir(
      "badpng",
      { "CATALOG.md": "# T\n", "brand.png": LOGO_SVG },
      { catalog: { logo: "brand.png" } },
    );
    const result = await pipeline(["describe", "--spec", svgNamedPng]);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain("brand.png: the file is not a PNG image, as its .png extension says");
    const pngNamedSvg = await specDir("badsvg", { "CATALOG.md": "# T\n", "logo.svg": PNG });
    expect((await pipeline(["describe", "--spec", pngNamedSvg])).code).toBe(65);
    expect(writes().length).toBe(before);
  });
});
