import { execFileSync } from "node:child_process";
import { mkdir, readdir, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type CliResult, runCli, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogBin } from "../support/catalog-project.js";
import { writeSyntheticIndex } from "../support/synthetic-index.js";

/*
 * Config errors that need the disk (what a path names, where a link leads, a git checkout) or a
 * secret kept out of the output, through the real CLI: exit 65 and one line from every command.
 */

let work: TempDir;
/** Real path of the scratch directory, as the loader reports paths. */
let root: string;
/** A synthetic index outside every project directory. */
let outsideIndex: string;

beforeAll(async () => {
  work = await tempDir("catalog-config-cli-");
  root = await realpath(work.path);
  outsideIndex = (await writeSyntheticIndex(join(root, "outside-index"), { packages: 2, readmeBytes: 100 }))
    .dir;
});
afterAll(async () => {
  await work?.remove();
});

/** A project directory `name` with a real `index/` and a config of `index` plus `extra`. */
async function project(name: string, extra: Record<string, unknown>): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, "index"), { recursive: true });
  const config = { sources: [{ path: "./index", root: true }], brand: { title: "T" }, ...extra };
  await writeFile(join(dir, "catalog.config.json"), JSON.stringify(config, null, 2));
  return dir;
}

/** Every command that loads the config, with what it needs besides the config. */
const commands: Record<string, (dir: string) => string[]> = {
  validate: () => ["validate", "catalog.config.json"],
  build: (dir) => ["build", "catalog.config.json", "--out", join(dir, "site")],
  dev: () => ["dev", "catalog.config.json"],
  ci: () => ["ci", "catalog.config.json"],
};

const lastLine = (result: CliResult) => result.stderr.trim().split("\n").at(-1);

describe("a config path that names nothing", () => {
  for (const [command, args] of Object.entries(commands)) {
    it(`is MISSING_FILE, exit 65, from ${command}, naming the key, the raw and the resolved path`, async () => {
      const dir = await project(`missing-${command}`, { css: "styles/site.css", ci: { forge: "github" } });
      const result = await runCli(catalogBin, args(dir), { cwd: dir });
      expect(result.code, result.stderr).toBe(65);
      expect(lastLine(result)).toBe(
        `pkg-catalog: MISSING_FILE: css "styles/site.css" resolves to ${dir}/styles/site.css, which does not exist`,
      );
      // nothing was built or written
      expect((await readdir(dir)).sort()).toEqual(["catalog.config.json", "index"]);
    });
  }

  it("is READ_ERROR for the wrong kind, naming the key (validate --format json)", async () => {
    const dir = await project("kinds", { docs: "README.md" });
    await writeFile(join(dir, "README.md"), "# not a directory\n");
    const result = await runCli(catalogBin, ["validate", "--format", "json"], { cwd: dir });
    expect(result.code).toBe(65);
    expect(JSON.parse(result.stdout)).toEqual({
      ok: false,
      file: "catalog.config.json",
      code: "READ_ERROR",
      keyPath: "docs",
      message: `READ_ERROR: docs "README.md" resolves to ${dir}/README.md, which is a file, not a directory`,
    });
    const logoDir = await project("logo-dir", { brand: { title: "T", logo: "index" } });
    const logo = await runCli(catalogBin, ["build", "--out", join(logoDir, "site")], { cwd: logoDir });
    expect(logo.code).toBe(65);
    expect(lastLine(logo)).toBe(
      `pkg-catalog: READ_ERROR: brand.logo "index" resolves to ${logoDir}/index, which is a directory, not a file`,
    );
  });
});

describe("containment by real path", () => {
  it("refuses a path source that is a link out of the config directory (build: exit 65, no site)", async () => {
    const dir = join(root, "linked-index");
    await mkdir(dir);
    await symlink(outsideIndex, join(dir, "index"));
    const config = { sources: [{ path: "./index", root: true }], brand: { title: "T" } };
    await writeFile(join(dir, "catalog.config.json"), JSON.stringify(config));
    const result = await runCli(catalogBin, ["build", "--out", join(dir, "site")], { cwd: dir });
    expect(result.code, result.stderr).toBe(65);
    expect(lastLine(result)).toBe(
      `pkg-catalog: PATH_ESCAPE: sources[0].path "./index" resolves to ${dir}/index, whose real path ${outsideIndex} is outside the config directory ${dir}`,
    );
    expect((await readdir(dir)).sort()).toEqual(["catalog.config.json", "index"]);
  });

  it("refuses css through a linked directory, from validate", async () => {
    const dir = await project("linked-css", { css: "theme/site.css" });
    await mkdir(join(root, "shared-theme"));
    await writeFile(join(root, "shared-theme", "site.css"), "body{}\n");
    await symlink(join(root, "shared-theme"), join(dir, "theme"));
    const result = await runCli(catalogBin, ["validate"], { cwd: dir });
    expect(result.code).toBe(65);
    expect(lastLine(result)).toBe(
      `pkg-catalog: PATH_ESCAPE: css "theme/site.css" resolves to ${dir}/theme/site.css, whose real path ${root}/shared-theme/site.css is outside the config directory ${dir}`,
    );
  });
});

describe("sources[].url with credentials", () => {
  it("is INVALID_TYPE, exit 65, naming the key, and the secret appears nowhere", async () => {
    const secret = "pa55-word-never-shown";
    const dir = await project("credentials", {});
    const config = {
      sources: [{ url: `https://reader:${secret}@index.example.com/acme`, root: true }],
      brand: { title: "T" },
    };
    await writeFile(join(dir, "catalog.config.json"), JSON.stringify(config));
    for (const args of [["validate", "--format", "json"], commands.build?.(dir) ?? []]) {
      const result = await runCli(catalogBin, args, { cwd: dir });
      expect(result.code).toBe(65);
      expect(lastLine(result)).toBe(
        'pkg-catalog: INVALID_TYPE: sources[0].url carries credentials (a user name or password before "@"); the config file carries none: give the URL without them (it is not shown here)',
      );
      expect(result.stdout + result.stderr).not.toContain(secret);
      expect(result.stdout + result.stderr).not.toContain("reader");
    }
  });
});

describe("credentials in the other URL-valued keys", () => {
  const cases: [string, Record<string, unknown>, string, string, string[]][] = [
    [
      "a git remote with a token",
      { sources: [{ git: "https://ci-bot:ghp-token-never-shown@example.com/acme/index.git", root: true }] },
      "sources[0].git",
      'sources[0].git carries credentials (a password, or a user name or token on an http(s) remote, before "@"); the config file carries none: give the remote without them (it is not shown here)',
      ["ci-bot", "ghp-token-never-shown"],
    ],
    [
      "siteUrl with a user and a password",
      { siteUrl: "https://deployer:site-pw-never-shown@tools.example.com" },
      "siteUrl",
      'siteUrl carries credentials (a user name or password before "@"); the config file carries none: give the URL without them (it is not shown here)',
      ["deployer", "site-pw-never-shown"],
    ],
    [
      "a nav link without a scheme, refused for that, shown redacted",
      { nav: [{ text: "x", link: "navuser:nav-pw-never-shown@example.com" }] },
      "nav[0].link",
      'nav[0].link must be an absolute http(s) URL or a path starting with a single "/", not "***@example.com"',
      ["navuser", "nav-pw-never-shown"],
    ],
  ];
  it("validate: INVALID_TYPE, exit 65, naming the key, and neither stdout nor stderr shows a secret", async () => {
    for (const [what, extra, keyPath, message, secrets] of cases) {
      const dir = await project(`credentials-${keyPath.replace(/\W/g, "-")}`, extra);
      for (const format of ["text", "json"]) {
        const result = await runCli(catalogBin, ["validate", "--format", format], { cwd: dir });
        expect(result.code, what).toBe(65);
        expect(lastLine(result), what).toBe(`pkg-catalog: INVALID_TYPE: ${message}`);
        if (format === "json") {
          expect(JSON.parse(result.stdout)).toEqual({
            ok: false,
            file: "catalog.config.json",
            code: "INVALID_TYPE",
            keyPath,
            message: `INVALID_TYPE: ${message}`,
          });
        }
        for (const secret of secrets) {
          expect(result.stdout, what).not.toContain(secret);
          expect(result.stderr, what).not.toContain(secret);
        }
      }
    }
  });
});

describe("a key written twice", () => {
  it("is INVALID_JSON naming the key path and the second occurrence's file:line:col", async () => {
    const dir = join(root, "duplicate");
    await mkdir(dir);
    const text = `{
  "sources": [{ "path": "./index", "root": true, "path": "/etc" }],
  "brand": { "title": "T" }
}
`;
    await writeFile(join(dir, "catalog.config.json"), text);
    const result = await runCli(catalogBin, ["validate", "--format", "json"], { cwd: dir });
    expect(result.code).toBe(65);
    const message = `INVALID_JSON: ${dir}/catalog.config.json:2:50: duplicate key sources[0].path (first at line 2 column 17); JSON readers disagree on which one counts`;
    expect(JSON.parse(result.stdout)).toMatchObject({
      code: "INVALID_JSON",
      keyPath: "sources[0].path",
      message,
    });
    expect(lastLine(result)).toBe(`pkg-catalog: ${message}`);
  });
});

describe("a git source's dir", () => {
  function git(cwd: string, ...args: string[]): void {
    const identity = [
      "-c",
      "user.name=T",
      "-c",
      "user.email=t@example.invalid",
      "-c",
      "init.defaultBranch=main",
    ];
    execFileSync("git", [...identity, ...args], { cwd, stdio: "ignore" });
  }

  it("is PATH_ESCAPE at load when it climbs out of the checkout (validate, exit 65)", async () => {
    const dir = await project("git-dir", {});
    const config = {
      sources: [{ git: "https://example.com/acme/index.git", dir: "site/../../x", root: true }],
      brand: { title: "T" },
    };
    await writeFile(join(dir, "catalog.config.json"), JSON.stringify(config));
    const result = await runCli(catalogBin, ["validate"], { cwd: dir });
    expect(result.code).toBe(65);
    expect(lastLine(result)).toBe(
      'pkg-catalog: PATH_ESCAPE: sources[0].dir "site/../../x" must name a directory inside the checkout, and it climbs out of it',
    );
  });

  it("is PATH_ESCAPE after the clone when a link in the repository leads out (build, exit 65)", async () => {
    const repo = join(root, "repo");
    await mkdir(repo);
    git(root, "init", "--quiet", repo);
    await symlink(outsideIndex, join(repo, "escape"));
    git(repo, "add", ".");
    git(repo, "commit", "--quiet", "-m", "a link out");
    const dir = join(root, "git-link");
    await mkdir(dir);
    const config = {
      sources: [{ git: pathToFileURL(repo).href, dir: "escape", root: true }],
      brand: { title: "T" },
    };
    await writeFile(join(dir, "catalog.config.json"), JSON.stringify(config));
    expect((await runCli(catalogBin, ["validate"], { cwd: dir })).code).toBe(0);
    const result = await runCli(catalogBin, ["build", "--out", join(dir, "site")], { cwd: dir });
    expect(result.code, result.stderr).toBe(65);
    expect(lastLine(result)).toBe(
      `pkg-catalog: PATH_ESCAPE: sources[0].dir "escape" resolves through a link in the repository to ${outsideIndex}, outside the checkout`,
    );
    expect(await readdir(dir)).toEqual(["catalog.config.json"]);
  });
});
