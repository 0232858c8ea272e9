// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${deps.*} placeholders are the metadata under test
// `pkg package test -i REF` from a registry and from an OCI image layout (dependencies installed
// into the store), and a bundle whose dependencies come from the registry.
import { join } from "node:path";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExecFixture, installedDir, parseEnv, publishExecFixture } from "./support/exec-fixture.js";
import { hostKey, publishPackage, script } from "./support/exec-packages.js";
import { hostToolDir, makeBundle } from "./support/package-test.js";
import { runPkg } from "./support/run-pkg.js";

let registry: RunningRegistry;
let work: TempDir;
let layout: string;
let inLayout: ExecFixture;
let inRegistry: ExecFixture;
let hostBin: string;

beforeAll(async () => {
  registry = await startRegistry();
  work = await tempDir("pkg-package-test-ref-");
  layout = join(work.path, "layout");
  [inLayout, inRegistry, hostBin] = await Promise.all([
    publishExecFixture(join(work.path, "l"), "", layout),
    publishExecFixture(join(work.path, "r"), `${registry.host}/`),
    hostToolDir(work.path),
  ]);
}, 120_000);
afterAll(async () => {
  await work?.remove();
  await registry?.stop();
});

const probe =
  'echo "$PATH"; echo "$PKG_VERSION $PKG_PLATFORM"; echo "$PKG_INSTALL_DIR"; echo "${APP_IFACE:-unset} ${APP_PRIVATE:-unset}"; data-tool; app-py x';

describe("pkg package test -i REFERENCE", () => {
  for (const where of ["layout", "registry"] as const) {
    it(`installs the package and its dependencies from a ${where} and tests it with the consumer environment`, async () => {
      const home = join(work.path, `home-${where}`);
      const fixture = where === "layout" ? inLayout : inRegistry;
      const args = where === "layout" ? ["--layout", layout, "-i", fixture.app] : ["-i", fixture.app];
      const result = await runPkg(["package", "test", ...args, "-p", hostKey(), "--", "sh", "-c", probe], {
        env: { PKG_HOME: home, PATH: "/usr/bin:/bin", TMPDIR: work.path },
      });
      expect(result.code, result.stderr).toBe(0);
      const app = installedDir(home, fixture.pushed.app.manifestDigest);
      const data = installedDir(home, fixture.pushed.data.manifestDigest);
      const [path, vars, installDir, visibility, dataTool, entry] = result.stdout.split("\n");
      expect(path).toBe(`${app}/entrypoints:${app}/content/bin:${data}/content/bin:/usr/bin:/bin`);
      expect(vars).toBe(`1.0 ${hostKey().replace("/", "-")}`);
      expect(installDir).toBe(`${app}/content`);
      expect(visibility).toBe("i unset");
      expect(dataTool).toBe("data-tool");
      expect(entry).toBe("pyfake -m app x private=p mode=on");
    });
  }

  it("takes the version from a primary tag without its build stamp, and refuses a shipped tool of mode 0644 with 65", async () => {
    await publishPackage({
      work: join(work.path, "stamped"),
      reference: `${registry.host}/acme/stamped:1.2.3_20250101120000`,
      tree: { "bin/x": script("true") },
      metadata: {},
    });
    const env = {
      PKG_HOME: join(work.path, "home-stamped"),
      PATH: `${hostBin}:/usr/bin:/bin`,
      TMPDIR: work.path,
    };
    const stamped = await runPkg(
      [
        "package",
        "test",
        "-i",
        `${registry.host}/acme/stamped:1.2.3_20250101120000`,
        "-p",
        hostKey(),
        "--",
        "sh",
        "-c",
        'echo "$PKG_VERSION"',
      ],
      { env },
    );
    expect(stamped.stdout, stamped.stderr).toBe("1.2.3\n");
    const broken = await runPkg(["package", "test", "-i", inRegistry.broken, "-p", hostKey(), "--", "tool"], {
      env,
    });
    expect(broken.code).toBe(65);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toMatch(
      /content\/bin\/tool: the package ships tool but it is not executable \(mode 0644\)/,
    );
  });

  it("installs a bundle's dependencies into the store and composes their environment", async () => {
    const bundle = await makeBundle(
      work.path,
      "with-deps",
      { "bin/mine": script('echo "mine $DATA_HOME"') },
      {
        env: [
          { key: "PATH", type: "path", value: "${installPath}/bin" },
          { key: "DATA_AT", type: "constant", value: "${deps.data.installPath}" },
        ],
        dependencies: [
          {
            identifier: `${registry.host}/acme/data@${inRegistry.pushed.data.manifestDigest}`,
            visibility: "public",
          },
        ],
      },
    );
    const home = join(work.path, "home-bundle");
    const result = await runPkg(
      ["package", "test", bundle, "-p", hostKey(), "--", "sh", "-c", "mine; data-tool; env"],
      {
        env: { PKG_HOME: home, PATH: "/usr/bin:/bin", TMPDIR: work.path },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const data = installedDir(home, inRegistry.pushed.data.manifestDigest);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toBe(`mine ${data}/content`);
    expect(lines[1]).toBe("data-tool");
    expect(parseEnv(result.stdout).DATA_AT).toBe(`${data}/content`);
  });
});
