// An environment package as pipeline prepare builds it, run by pkg: an interpreter package made
// from the machine's Python by `pkg package create`, pushed to the real registry; a pylock app
// prepared (one layer per wheel, the interpreter pinned by digest), its layers and metadata pushed
// with `pkg package push` (as a user may, outside the pipeline), then `pkg exec` of
// its console script from a clean $PKG_HOME with a PATH that holds no `python`: the launcher runs
// the interpreter package's python, which imports the app and its dependency from the layers.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type RunningRegistry, runCli, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PreparedVersion } from "../src/pipeline/documents/prepared-version.js";
import { type InterpreterTree, publishMachineInterpreter } from "./support/python-interpreter.js";
import { type SimpleIndex, startSimpleIndex } from "./support/simple-index.js";
import { pythonSpec } from "./support/spec-case.js";
import { mirrorBin, pkgBin } from "./support/sync-run.js";
import { type BuiltWheel, buildWheel, lockPackageEntry } from "./support/wheels.js";

let work: TempDir;
let registry: RunningRegistry;
let index: SimpleIndex;
let interpreter: InterpreterTree;
const wheels: Record<string, BuiltWheel> = {};

beforeAll(async () => {
  work = await tempDir("pkg-mirror-env-exec-");
  await mkdir(join(work.path, ".git"));
  registry = await startRegistry();
  interpreter = await publishMachineInterpreter(join(work.path, "interpreter"), registry.host);

  const dir = join(work.path, "wheels");
  await mkdir(dir);
  wheels.app = await buildWheel(dir, {
    name: "Hello_App",
    version: "1.0",
    requires: ["helper-lib>=1"],
    files: {
      "hello_app/__init__.py":
        "import sys\nimport helper_lib\n\ndef main():\n    print(helper_lib.greet(sys.argv[1:]), sys.argv[0], sys.prefix)\n    return 0\n",
    },
    consoleScripts: { hello: "hello_app:main" },
  });
  wheels.helper = await buildWheel(dir, {
    name: "helper-lib",
    version: "2.0",
    files: { "helper_lib/__init__.py": "def greet(who):\n    return 'hello ' + ' '.join(who)\n" },
  });
  index = await startSimpleIndex({
    flavour: "html",
    projects: { "hello-app": [{ wheel: wheels.app }], "helper-lib": [{ wheel: wheels.helper }] },
  });
}, 300_000);

afterAll(async () => {
  await index?.stop();
  await registry?.stop();
  await work?.remove();
});

const lockEntry = (name: string, version: string, wheel: BuiltWheel) =>
  lockPackageEntry(index.url, name, version, wheel);

describe("an environment package built by pipeline prepare", () => {
  it("runs its console script through pkg exec on the interpreter package, from a clean PKG_HOME", async () => {
    const dir = join(work.path, "app");
    await mkdir(dir);
    await writeFile(
      join(dir, "pylock.toml"),
      `lock-version = "1.0"\ncreated-by = "tests"\n${lockEntry("hello-app", "1.0", wheels.app as BuiltWheel)}${lockEntry("helper-lib", "2.0", wheels.helper as BuiltWheel)}`,
    );
    await writeFile(
      join(dir, "mirror.yml"),
      pythonSpec({
        name: "hello-app",
        target: { registry: registry.host, repository: "py/hello-app" },
        source: { type: "pylock", path: "app/pylock.toml" },
        python: {
          version: interpreter.version,
          abi: interpreter.abi,
          interpreter_package: `${registry.host}/py/cpython:${interpreter.version}`,
        },
      }),
    );
    const env = { HOME: dir, PKG_MIRROR_UV: join(work.path, "no-such-uv") };
    const planned = await runCli(mirrorBin, ["package", "pipeline", "plan", "-o", "plan.json"], {
      cwd: dir,
      env,
    });
    expect(planned.code, planned.stderr).toBe(0);
    const tag: string = JSON.parse(await readFile(join(dir, "plan.json"), "utf8")).versions[0].version;
    const prepared = await runCli(
      mirrorBin,
      ["package", "pipeline", "prepare", "--plan", "plan.json", "--version", tag, "--format", "json"],
      { cwd: dir, env },
    );
    expect(prepared.code, prepared.stderr).toBe(0);
    const [bundle] = (JSON.parse(prepared.stdout) as PreparedVersion).bundles;
    const layers = (bundle?.layers ?? []).map((l) => join(dir, "bundles", l.file));
    expect(layers).toHaveLength(2);
    const pushed = await runCli(pkgBin, [
      "package",
      "push",
      "-i",
      `${registry.host}/py/hello-app:1.0`,
      "-p",
      "linux/amd64",
      "-m",
      join(dir, "bundles", bundle?.metadata as string),
      ...layers,
    ]);
    expect(pushed.code, pushed.stderr).toBe(0);

    const home = join(work.path, "clean-pkg-home");
    const run = await runCli(
      pkgBin,
      ["exec", `${registry.host}/py/hello-app:1.0`, "--", "hello", "pkg", "world"],
      {
        env: { PKG_HOME: home, PATH: "/usr/bin:/bin" },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    // the launcher names itself in argv[0]; sys.prefix is the interpreter package's content directory in the clean store
    const [greeting, prefix] = run.stdout.trim().split(" hello ");
    expect(greeting).toBe("hello pkg world");
    expect(prefix?.startsWith(`${home}/`)).toBe(true);
  });
});
