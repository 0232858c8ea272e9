import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Of } from "@pkg/index";
import { createFsReader, DEFAULT_FILE_CONCURRENCY, walkIndex } from "@pkg/index/read";
import {
  createTestCa,
  type RunningRegistry,
  runCli,
  startHttpServer,
  startRegistry,
  type TempDir,
  type TestCa,
  type TestServer,
  tempDir,
} from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { treeDigests } from "../../catalog/test/support/file-tree.js";
import { schemaErrors } from "../../index/test/support/schemas.js";
import { writeSampleTree } from "./support/fixture-tree.js";
import { runPkg } from "./support/run-pkg.js";

const catalogBin = fileURLToPath(new URL("../../catalog/bin/pkg-catalog.js", import.meta.url));
const README = `# Acme Tool

[![badge](https://img.example/b.svg)](https://example.org)

Acme Tool turns **plain** input into [useful](https://example.org) output.

## Use

Run \`tool\`.
`;
const LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 8"><circle cx="4" cy="4" r="4"/></svg>\n';

interface Report {
  package: string;
  destination: string;
  status: "updated" | "unchanged";
  requestUrl: string | null;
  requestNumber: number | null;
  tags: string[];
  changedTags: string[];
  reservedTagsDropped: string[];
  descStatus: string;
  writtenPaths: string[];
}

let registry: RunningRegistry;
let work: TempDir;
let ca: TestCa;
let repo: string;
const bundles: Record<string, string> = {};

async function pushCascade(tag: string, flavour: string): Promise<void> {
  const bundle = bundles[flavour] as string;
  const pushed = await runPkg([
    "package",
    "push",
    "-i",
    `${repo}:${tag}`,
    "-p",
    "linux/amd64",
    "--cascade",
    bundle,
  ]);
  expect(pushed.code, pushed.stderr).toBe(0);
}

async function announce(
  dir: string,
  ...args: string[]
): Promise<{ code: number; stderr: string; report: Report }> {
  const result = await runPkg([
    "package",
    "announce",
    "--package",
    "acme/tool",
    "--out",
    dir,
    "--format",
    "json",
    ...args,
  ]);
  return {
    code: result.code,
    stderr: result.stderr,
    report: (result.code === 0 ? JSON.parse(result.stdout) : undefined) as Report,
  };
}

const NEW = (r: string) => ["--repository", r, "--label", "example.org", "--owner", "alice:7"];

/** Every file below `dir` with its digest, modification time and inode: any write shows. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path);
    out[path.slice(dir.length + 1)] = `${sha256Of(await readFile(path))} ${info.mtimeMs} ${info.ino}`;
  }
  return out;
}

beforeAll(async () => {
  registry = await startRegistry();
  work = await tempDir("pkg-announce-");
  ca = await createTestCa();
  repo = `${registry.host}/acme/tool`;
  for (const flavour of ["a", "b", "c"]) {
    const tree = join(work.path, `tree-${flavour}`);
    await writeSampleTree(tree, flavour);
    bundles[flavour] = join(work.path, `tool-${flavour}.tar.zst`);
    const created = await runPkg(["package", "create", tree, "-o", bundles[flavour] as string]);
    expect(created.code, created.stderr).toBe(0);
  }
  await pushCascade("1.2.3", "a");
  await pushCascade("1.3.0", "b");
  await writeFile(join(work.path, "README.md"), README);
  await writeFile(join(work.path, "logo.svg"), LOGO);
  const described = await runPkg([
    "package",
    "describe",
    repo,
    "--readme",
    join(work.path, "README.md"),
    "--logo",
    join(work.path, "logo.svg"),
  ]);
  expect(described.code, described.stderr).toBe(0);
});
afterAll(async () => {
  await registry?.stop();
  await ca?.remove();
  await work?.remove();
});

describe("pkg package announce --out, then pkg-catalog build", () => {
  let project: string;
  let index: string;
  let pathSite: Record<string, string>;

  beforeAll(async () => {
    project = join(work.path, "project");
    index = join(project, "index");
    await mkdir(project, { recursive: true });
    await writeFile(
      join(project, "catalog.config.json"),
      JSON.stringify({
        sources: [{ path: "./index", root: true }],
        brand: { title: "T" },
        siteUrl: "https://x.test",
      }),
    );
  });

  it("writes a new index whose every file validates against the schemas and reads back whole", async () => {
    const tagsFile = join(work.path, "tags.txt");
    await writeFile(tagsFile, "1.2.3\n1.2,1.3.0\n1.3\n\n1,latest\n");
    const { code, stderr, report } = await announce(index, "--tags-file", tagsFile, ...NEW(repo));
    expect(code, stderr).toBe(0);
    expect(report).toMatchObject({
      package: "acme/tool",
      destination: index,
      status: "updated",
      requestUrl: null,
      requestNumber: null,
      tags: ["1.2.3", "1.2", "1.3.0", "1.3", "1", "latest"],
      reservedTagsDropped: [],
      descStatus: "updated",
    });
    const files = Object.keys(await snapshot(index)).sort();
    expect([...report.writtenPaths].sort()).toEqual(files);
    expect(report.writtenPaths.slice(-3)).toEqual(["p/acme/tool.json", "config.json", "c/index.json"]);
    expect(files.filter((f) => f.endsWith(".json") && f.includes("/o/"))).toHaveLength(2);
    for (const file of files) expect(schemaErrors(file, await readFile(join(index, file))), file).toEqual([]);

    const walked = await walkIndex(await createFsReader(index), {
      source: "t",
      concurrency: DEFAULT_FILE_CONCURRENCY,
    });
    expect(walked.warnings).toEqual([]);
    const root = walked.packages[0]?.pkg.root;
    expect(root?.name).toBe("example.org/acme/tool");
    expect(root?.repository).toBe(`oci://${repo}`);
    expect(root?.desc).toMatchObject({
      title: "Acme Tool",
      description: "Acme Tool turns plain input into useful output.",
      keywords: [],
    });
    expect(root?.tags["1.3"]?.content).toBe(root?.tags["1.3.0"]?.content);
    expect(root?.tags["1.2"]?.content).toBe(root?.tags["1.2.3"]?.content);
    expect(root?.tags["1.2.3"]?.content).not.toBe(root?.tags["1.3.0"]?.content);
    // the image index stored is the registry's own bytes
    const served = await fetch(`${registry.url}/v2/acme/tool/manifests/1.3.0`, {
      headers: { accept: "application/vnd.oci.image.index.v1+json" },
    });
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(sha256Of(bytes)).toBe(root?.tags["1.3.0"]?.content);
    expect(
      (await readFile(join(index, `p/acme/tool/o/sha256/${sha256Of(bytes).slice(7)}.json`))).equals(bytes),
    ).toBe(true);
  });

  it("changes no byte when run again with the same inputs", async () => {
    const before = await snapshot(index);
    const { code, stderr, report } = await announce(index, "--tags-file", join(work.path, "tags.txt"));
    expect(code, stderr).toBe(0);
    expect(report).toMatchObject({
      status: "unchanged",
      writtenPaths: [],
      changedTags: [],
      descStatus: "unchanged",
    });
    expect(await snapshot(index)).toEqual(before);
  });

  it("builds a catalog showing the package with its tags, aliases, README and logo", async () => {
    const built = await runCli(catalogBin, ["build", "--out", "site"], { cwd: project });
    expect(built.code, built.stderr).toBe(0);
    expect(built.stderr).toMatch(/^built 1 package from 1 index into /m);
    const html = await readFile(join(project, "site/acme/tool/index.html"), "utf8");
    expect(html).toContain("Acme Tool");
    expect(html).toContain('<h2 id="readme-h">README</h2>');
    expect(html).toMatch(/turns <strong>plain<\/strong> input/);
    const logo = /<img class="package-logo" src="([^"]+)"/.exec(html)?.[1];
    expect(logo).toMatch(/\/p\/acme\/tool\/o\/sha256\/[0-9a-f]{64}\.svg$/);
    expect(await readFile(join(project, "site/acme/tool", logo ?? ""), "utf8")).toBe(LOGO);
    const row = (tag: string) =>
      new RegExp(`<th scope="row"><code>${tag}</code></th><td>(.*?)</td>`).exec(html)?.[1];
    expect(row("1\\.3\\.0")).toBe(
      "<span><code>1.3</code></span><span> <code>1</code></span><span> <code>latest</code></span>",
    );
    expect(row("1\\.2\\.3")).toBe("<span><code>1.2</code></span>");
    pathSite = await treeDigests(join(project, "site"));
  });

  it("builds the same site from the directory served over loopback HTTPS as a url source", async () => {
    let server: TestServer | undefined;
    try {
      server = await startHttpServer(
        async (req, res) => {
          const path = new URL(req.url ?? "/", "https://x").pathname;
          const body = await readFile(join(index, path)).catch(() => undefined);
          res.writeHead(body === undefined ? 404 : 200).end(body);
        },
        { tls: ca },
      );
      const urlProject = join(work.path, "url-project");
      await mkdir(urlProject, { recursive: true });
      await writeFile(
        join(urlProject, "catalog.config.json"),
        JSON.stringify({
          sources: [{ url: server.url, root: true }],
          brand: { title: "T" },
          siteUrl: "https://x.test",
        }),
      );
      const built = await runCli(catalogBin, ["build", "--out", "site"], {
        cwd: urlProject,
        env: { NODE_EXTRA_CA_CERTS: ca.certPath, XDG_CACHE_HOME: join(urlProject, "cache") },
      });
      expect(built.code, built.stderr).toBe(0);
      expect(built.stderr).toMatch(/^built 1 package from 1 index into /m);
      expect(built.stderr).not.toMatch(/warn|skipped|left out/i);
      expect(await treeDigests(join(urlProject, "site"))).toEqual(pathSite);
      // every object the site mirrors was fetched and checked against its digest
      const fetched = server.requests.map((r) => r.url);
      expect(fetched).toContain("/p/acme/tool.json");
      expect(fetched.filter((u) => u.includes("/o/sha256/"))).toHaveLength(4);
    } finally {
      await server?.stop();
    }
  });
});

describe("the tag modes", () => {
  let dir: string;
  beforeAll(async () => {
    dir = join(work.path, "modes");
    const first = await announce(dir, "--tags", "1.2.3", ...NEW(repo));
    expect(first.code, first.stderr).toBe(0);
  });

  it("--from-registry adds every tag the repository holds, leaving out the reserved ones", async () => {
    const { code, stderr, report } = await announce(dir, "--from-registry");
    expect(code, stderr).toBe(0);
    expect(report.status).toBe("updated");
    expect([...report.tags].sort()).toEqual(["1", "1.2", "1.2.3", "1.3", "1.3.0", "latest"]);
    expect(report.changedTags.sort()).toEqual(["1", "1.2", "1.3", "1.3.0", "latest"]);
    expect(report.reservedTagsDropped).toEqual(["__pkg.desc"]);
  });

  it("--refresh re-observes moved tags and adds none; --tags-file adds without removing", async () => {
    await pushCascade("1.4.0", "c");
    const refreshed = await announce(dir, "--refresh");
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.report.changedTags.sort()).toEqual(["1", "latest"]);
    const root = JSON.parse(await readFile(join(dir, "p/acme/tool.json"), "utf8")) as { tags: object };
    expect(Object.keys(root.tags)).not.toContain("1.4.0");
    const tagsFile = join(work.path, "more-tags.txt");
    await writeFile(tagsFile, "1.4.0,1.4");
    const added = await announce(dir, "--tags-file", tagsFile);
    expect(added.report.changedTags).toEqual(["1.4.0", "1.4"]);
    const after = JSON.parse(await readFile(join(dir, "p/acme/tool.json"), "utf8")) as { tags: object };
    expect(Object.keys(after.tags).sort()).toEqual([
      "1",
      "1.2",
      "1.2.3",
      "1.3",
      "1.3.0",
      "1.4",
      "1.4.0",
      "latest",
    ]);
  });

  it("--tags replaces the curated set; yank markers and human-set fields survive", async () => {
    const rootPath = join(dir, "p/acme/tool.json");
    const edited = JSON.parse(await readFile(rootPath, "utf8")) as Record<string, unknown> & {
      tags: Record<string, Record<string, unknown>>;
    };
    edited.status = "deprecated";
    edited.deprecated_message = "use acme/tool2";
    edited.upstream = { org: "Acme", repository_url: "https://example.org/acme" };
    (edited.tags["1.3.0"] as Record<string, unknown>).yanked = {
      reason: "broken",
      at: "2026-01-02T03:04:05Z",
    };
    await writeFile(rootPath, `${JSON.stringify(edited, null, 2)}\n`);
    const { code, stderr, report } = await announce(dir, "--tags", "1.3.0,1.4.0,latest");
    expect(code, stderr).toBe(0);
    expect(report.status).toBe("updated");
    const root = JSON.parse(await readFile(rootPath, "utf8")) as typeof edited;
    // the committed order, kept
    const kept = Object.keys(edited.tags).filter((t) => ["1.3.0", "1.4.0", "latest"].includes(t));
    expect(Object.keys(root.tags)).toEqual(kept);
    expect(root.tags["1.3.0"]?.yanked).toEqual({ reason: "broken", at: "2026-01-02T03:04:05Z" });
    expect(root).toMatchObject({
      status: "deprecated",
      deprecated_message: "use acme/tool2",
      upstream: { org: "Acme", repository_url: "https://example.org/acme" },
    });
    const catalog = JSON.parse(await readFile(join(dir, "c/index.json"), "utf8")) as { packages: object };
    expect(catalog.packages).toEqual({ "acme/tool": sha256Of(await readFile(rootPath)) });
    for (const file of ["p/acme/tool.json", "c/index.json"]) {
      expect(schemaErrors(file, await readFile(join(dir, file)))).toEqual([]);
    }
  });
});

describe("exit codes", () => {
  const out = () => join(work.path, "errors");
  const run = (...args: string[]) => runPkg(["package", "announce", ...args]);

  it("64 for a usage mistake, in one line", async () => {
    const cases: [string[], string][] = [
      [["--package", "acme/tool", "--out", out()], "say which tags"],
      [
        ["--package", "acme/tool", "--refresh", "--from-registry", "--out", out()],
        "--from-registry and --refresh cannot be combined",
      ],
      [
        ["--package", "acme/tool", "--tags", "1.2.3,__pkg.desc", "--out", out()],
        "__pkg.desc is a reserved tag",
      ],
      [["--package", "acme/tool", "--tags", `sha256.${"a".repeat(64)}`, "--out", out()], "is a reserved tag"],
      [["--package", "acme/tool", "--tags", "1.2.3"], "say where to announce: --out DIR"],
      [["--package", "tool", "--tags", "1.2.3", "--out", out()], "expected NAMESPACE/PACKAGE"],
      [["--package", "acme/tool", "--tags", "1.2.3", "--out", out()], "give --repository"],
      [
        ["--package", "acme/tool", "--tags", "1.2.3", "--out", out(), "--repository", repo, "--owner", "a:1"],
        "give --label",
      ],
      [
        [
          "--package",
          "acme/tool",
          "--tags",
          "1.2.3",
          "--out",
          out(),
          "--repository",
          repo,
          "--label",
          "x.org",
        ],
        "--owner LOGIN:ID",
      ],
      [
        ["--package", "acme/tool", "--tags", "1.2.3", "--out", out(), "--owner", "alice"],
        "expected LOGIN:ID",
      ],
      [
        ["--package", "acme/tool", "--tags", "1.2.3", "--out", out(), "--repository", `${repo}:1.0`],
        "without a tag",
      ],
    ];
    for (const [args, message] of cases) {
      const result = await run(...args);
      expect(result.code, args.join(" ")).toBe(64);
      expect(result.stderr, args.join(" ")).toContain(message);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
    const mismatch = join(work.path, "mismatch");
    expect(
      (await run("--package", "acme/tool", "--tags", "1.2.3", "--out", mismatch, ...NEW(repo))).code,
    ).toBe(0);
    const other = await run(
      "--package",
      "acme/tool",
      "--tags",
      "1.2.3",
      "--out",
      mismatch,
      "--repository",
      `${registry.host}/acme/other`,
    );
    expect(other.code).toBe(64);
    expect(other.stderr).toContain(`the index names oci://${repo} for acme/tool`);
  });

  it("65 for a tag the repository does not have, and for a root that breaks the schema", async () => {
    const missing = await run("--package", "acme/tool", "--tags", "9.9.9", "--out", out(), ...NEW(repo));
    expect(missing.code).toBe(65);
    expect(missing.stderr).toBe(`pkg: ${repo}:9.9.9: no such tag\n`);
    const broken = join(work.path, "broken");
    await mkdir(join(broken, "p/acme"), { recursive: true });
    await writeFile(join(broken, "p/acme/tool.json"), '{"name": "example.org/acme/tool"}\n');
    const result = await run("--package", "acme/tool", "--refresh", "--out", broken);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain("p/acme/tool.json: $.repository: required property missing");
  });

  it("69 when the registry does not answer, 80 when it refuses", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const down = await run(
      "--package",
      "acme/tool",
      "--tags",
      "1.0",
      "--out",
      out(),
      ...NEW(`127.0.0.1:${port}/acme/tool`),
    );
    expect(down.code).toBe(69);
    const secured = await startRegistry({ auth: "basic" });
    try {
      const refused = await run(
        "--package",
        "acme/tool",
        "--from-registry",
        "--out",
        out(),
        ...NEW(`${secured.host}/acme/tool`),
      );
      expect(refused.code).toBe(80);
      expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    } finally {
      await secured.stop();
    }
  });
});
