// `pkg package test BUNDLE -- CMD`: the command form, its environment, reports, exit codes.
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readJUnitFile } from "../src/junit/index.js";
import { brokenPackage, hostToolDir, makeBundle, toolPackage } from "./support/package-test.js";
import { runPkg } from "./support/run-pkg.js";

let work: TempDir;
let tool: string;
let broken: string;
let hostBin: string;
let env: Record<string, string>;

beforeAll(async () => {
  work = await tempDir("pkg-package-test-");
  [tool, broken, hostBin] = await Promise.all([
    toolPackage(work.path),
    brokenPackage(work.path),
    hostToolDir(work.path),
  ]);
  env = { PKG_HOME: join(work.path, "home"), PATH: `${hostBin}:/usr/bin:/bin`, TMPDIR: join(work.path) };
});
afterAll(async () => {
  await work?.remove();
});

const test = (args: string[], extra: Record<string, string> = {}) =>
  runPkg(["package", "test", ...args], { env: { ...env, ...extra } });

describe("pkg package test -- CMD", () => {
  it("runs the package's command with its consumer environment and the PKG_* variables, in a fresh scratch directory", async () => {
    const result = await test([
      tool,
      "-p",
      "linux/amd64+libc.musl",
      "--pkg-version",
      "1.2.3",
      "--image",
      "alpine:3.20",
      "--junit-name",
      "version",
      "--",
      "tool",
      "--version",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe("tool --version");
    expect(lines[1]).toBe(
      "PKG_VERSION=1.2.3 PKG_PLATFORM=linux-amd64-musl PKG_IMAGE=alpine:3.20 PKG_TEST_NAME=version",
    );
    // the consumer environment: public constants, not private ones
    expect(lines[2]).toMatch(/^TOOL_HOME=\S+\/package\/content TOOL_SECRET=unset$/);
    const scratch = lines[3]?.slice("pwd=".length) ?? "";
    expect(scratch).toMatch(/\/pkg-test-[^/]+\/scratch$/);
    expect(dirname(scratch)).toBe(
      dirname(dirname(lines[2]?.split(" ")[0]?.slice("TOOL_HOME=".length) ?? "")),
    );
    expect(result.stderr).toMatch(/^PASS version \(\d+\.\d\d s\)\n$/);
  });

  it("gives PKG_INSTALL_DIR the package's content and removes the work directory afterwards", async () => {
    const result = await test([
      tool,
      "-p",
      "linux/amd64",
      "--",
      "sh",
      "-c",
      'ls "$PKG_INSTALL_DIR/share"; echo "$PKG_INSTALL_DIR"; ls -A',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const [listing, installDir, scratchListing] = result.stdout.split("\n");
    expect(listing).toBe("data.txt");
    expect(scratchListing).toBe("");
    await expect(readFile(join(installDir ?? "", "share", "data.txt"), "utf8")).rejects.toMatchObject({
      code: "ENOENT",
    });
  });

  it("runs an entrypoint's launcher", async () => {
    const result = await test([tool, "-p", "linux/amd64", "--", "tool-hello", "there"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n")[0]).toBe("tool hello there");
  });

  it("fails with 1 when the command exits non-zero, and --format json reports the captured run", async () => {
    const result = await test(
      [tool, "-p", "linux/amd64", "--format", "json", "--junit-name", "smoke", "--", "tool", "x"],
      { TOOL_FAIL: "3" },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("pkg: FAIL smoke: exit 3\n");
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      name: "smoke",
      kind: "command",
      platform: "linux/amd64",
      status: "failed",
      message: "exit 3",
      assertion: null,
      run: { exit_code: 3, stderr: 'failing as asked <&"\n', truncated: false, timed_out: false },
    });
    expect(report.run.stdout).toMatch(/^tool x\n/);
    expect(typeof report.run.duration_ms).toBe("number");
  });

  it("reports a command killed by a signal as exit 128 + n", async () => {
    const result = await test([
      tool,
      "-p",
      "linux/amd64",
      "--format",
      "json",
      "--",
      "sh",
      "-c",
      "kill -TERM $$",
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: "failed",
      message: "exit 143",
      run: { exit_code: 143 },
    });
  });

  it("refuses a shipped tool of mode 0644 with 65 naming the file, never running the host's tool", async () => {
    const result = await test([
      broken,
      "-p",
      "linux/amd64",
      "--junit",
      join(work.path, "broken.xml"),
      "--junit-name",
      "tool",
      "--",
      "tool",
    ]);
    expect(result.code).toBe(65);
    expect(result.stdout).not.toContain("host tool");
    expect(result.stderr).toMatch(
      /^pkg: SCRIPT_ERROR tool: \S+\/package\/content\/bin\/tool: the package ships tool but it is not executable \(mode 0644\); not running a tool from the host's PATH instead\n$/,
    );
    const junit = await readJUnitFile(join(work.path, "broken.xml"));
    expect(junit.suites[0]?.cases[0]?.error).toMatchObject({
      type: "script_error",
      message: expect.stringContaining(
        "bin/tool: the package ships tool but it is not executable (mode 0644)",
      ),
    });
    // the host's tool is there and would run: the refusal is the package's doing
    const host = await test([tool, "-p", "linux/amd64", "--", "sh", "-c", `${hostBin}/tool`]);
    expect(host.stdout).toBe("host tool\n");
  });

  it("refuses the same package when a shell would start the host's tool in its place (the CI legs' sh -c form)", async () => {
    const result = await test([broken, "-p", "linux/amd64", "--", "sh", "-c", "tool"]);
    expect(result.code).toBe(65);
    expect(result.stdout).not.toContain("host tool");
    expect(result.stderr).toMatch(
      /\/package\/content\/bin\/tool: the package ships tool but it is not executable \(mode 0644\); a shell in the package's environment would run \S+\/tool instead\n$/,
    );
  });

  it("fails a command found nowhere with 1", async () => {
    const result = await test([tool, "-p", "linux/amd64", "--format", "json", "--", "no-such-tool"]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      status: "failed",
      message: "no-such-tool: not found in the package nor on PATH",
      run: null,
    });
  });

  it("takes --metadata for a bundle whose metadata is elsewhere, and none at all", async () => {
    const moved = join(work.path, "elsewhere.json");
    await runPkg([
      "package",
      "create",
      join(work.path, "tool", "tree"),
      "-o",
      join(work.path, "bare", "b.tar.zst"),
    ]);
    const withMetadata = await test([
      join(work.path, "bare", "b.tar.zst"),
      "--metadata",
      join(dirname(tool), "metadata.json"),
      "-p",
      "linux/amd64",
      "--",
      "tool",
    ]);
    expect(withMetadata.code, withMetadata.stderr).toBe(0);
    const without = await test([
      join(work.path, "bare", "b.tar.zst"),
      "-p",
      "linux/amd64",
      "--format",
      "json",
      "--",
      "sh",
      "-c",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion
      'echo "${TOOL_HOME:-none}"',
    ]);
    expect(without.code, without.stderr).toBe(0);
    expect(JSON.parse(without.stdout).run.stdout).toBe("none\n");
    const missing = await test([tool, "--metadata", moved, "-p", "linux/amd64", "--", "tool"]);
    expect(missing.code).toBe(65);
    expect(missing.stderr).toContain("elsewhere.json");
  });

  it("is a usage error (64) to name no package or both a bundle and -i, no command or two, --junit without a name, or a bad platform", async () => {
    const cases: string[][] = [
      ["-p", "linux/amd64", "--", "tool"],
      [tool, "-i", "r.example/a:1", "-p", "linux/amd64", "--", "tool"],
      [tool, "-p", "linux/amd64"],
      [tool, "-p", "linux/amd64", "--script", "x.star", "--", "tool"],
      [tool, "-p", "linux/amd64", "--junit", "j.xml", "--", "tool"],
      [tool, "-p", "linux", "--", "tool"],
      [tool, "--", "tool"],
      [tool, "-p", "linux/amd64", "--script", join(work.path, "missing.star")],
      ["-i", "r.example/a:1", "--metadata", "m.json", "-p", "linux/amd64", "--", "tool"],
    ];
    for (const args of cases) {
      const result = await test(args);
      expect({ args, code: result.code }).toEqual({ args, code: 64 });
      expect(result.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    }
  });

  it("tells the command from the bundle by where -- is, also when an option's value is --", async () => {
    const result = await test([
      "-p",
      "linux/amd64",
      "--junit-name",
      "--",
      tool,
      "--format",
      "json",
      "--",
      "tool",
      "a",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      name: "--",
      run: { stdout: expect.stringMatching(/^tool a\n/) },
    });
  });
});

describe("pkg package test LAYER... -- CMD", () => {
  it("puts several bundles together as one package's layers, in order, with the first's metadata beside it", async () => {
    const extra = await makeBundle(
      work.path,
      "extra",
      { "share/extra.txt": { kind: "file", content: "x\n" } },
      {},
    );
    const result = await test([
      tool,
      extra,
      "-p",
      "linux/amd64",
      "--",
      "sh",
      "-c",
      'ls "$PKG_INSTALL_DIR/share"; tool layered',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.split("\n").slice(0, 3)).toEqual(["data.txt", "extra.txt", "tool layered"]);
  });

  it("refuses layers that install one file twice (65, naming it)", async () => {
    const result = await test([tool, tool, "-p", "linux/amd64", "--", "tool"]);
    expect(result.code).toBe(65);
    expect(result.stderr).toContain("layers overlap: bin/tool is in more than one layer");
  });
});
