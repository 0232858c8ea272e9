// Two Python applications sharing a wheel, mirrored by the pipeline's own commands into the real
// registry: plan, prepare (one layer per wheel), the native test leg (`pkg package test` of the
// layers, the interpreter package installed as the private dependency), push (each wheel layer
// registered standalone under <wheel_scope>/<index host>/<package>:<wheel sha256>, the app's layers
// mounted from there). The second app finds the shared wheel registered and mounts it; `pkg exec` of
// each published app runs its console script from a clean $PKG_HOME with no python on PATH.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { text } from "node:stream/consumers";
import { openRegistry } from "@pkg/oci";
import { type RunningRegistry, runCli, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlanDocument } from "../src/pipeline/documents/plan-document.js";
import type { PreparedVersion } from "../src/pipeline/documents/prepared-version.js";
import type { RunSummary } from "../src/pipeline/documents/run-summary.js";
import type { SyncReport } from "../src/pipeline/sync-report.js";
import { type InterpreterTree, publishMachineInterpreter } from "./support/python-interpreter.js";
import { uvBinary } from "./support/python-tools.js";
import { type SimpleIndex, startSimpleIndex } from "./support/simple-index.js";
import { pythonSpec } from "./support/spec-case.js";
import { mirrorBin, pkgBin } from "./support/sync-run.js";
import { type BuiltWheel, buildWheel, lockPackageEntry } from "./support/wheels.js";

let work: TempDir;
let registry: RunningRegistry;
let index: SimpleIndex;
/** A pypi project with compiled-looking wheels: cp3XX and abi3, manylinux and musllinux tags. */
let compiledIndex: SimpleIndex;
let interpreter: InterpreterTree;
let uv: string;
const wheels: Record<string, BuiltWheel> = {};

beforeAll(async () => {
  work = await tempDir("pkg-mirror-env-pipeline-");
  await mkdir(join(work.path, ".git"));
  registry = await startRegistry();
  interpreter = await publishMachineInterpreter(join(work.path, "interpreter"), registry.host);

  const dir = join(work.path, "wheels");
  await mkdir(dir);
  const app = (name: string, module: string, script: string) =>
    buildWheel(dir, {
      name,
      version: "1.0",
      requires: ["helper-lib>=1"],
      files: {
        [`${module}/__init__.py`]: `import sys\nimport helper_lib\n\ndef main():\n    print(helper_lib.greet('${script}', sys.argv[1:]))\n    return 0\n`,
      },
      consoleScripts: { [script]: `${module}:main` },
    });
  wheels.hello = await app("hello-app", "hello_app", "hello");
  wheels.hola = await app("hola-app", "hola_app", "hola");
  wheels.helper = await buildWheel(dir, {
    name: "helper-lib",
    version: "2.0",
    files: { "helper_lib/__init__.py": "def greet(how, who):\n    return how + ' ' + ' '.join(who)\n" },
  });
  index = await startSimpleIndex({
    flavour: "json",
    projects: {
      "hello-app": [{ wheel: wheels.hello }],
      "hola-app": [{ wheel: wheels.hola }],
      "helper-lib": [{ wheel: wheels.helper }],
    },
  });

  // calc-app 1.0 needs fast-core (only a wheel of this interpreter's ABI for manylinux x86_64) and
  // stable-ext (abi3 wheels for manylinux and musllinux); calc-app 1.1 is yanked
  uv = await uvBinary();
  const abi = interpreter.abi;
  const calc = (version: string) =>
    buildWheel(dir, {
      name: "calc-app",
      version,
      requires: ["fast-core>=1", "stable-ext>=1"],
      files: {
        "calc_app/__init__.py": `import sys, fast_core, stable_ext\n\ndef main():\n    print('${version}', fast_core.KIND, stable_ext.KIND, sys.argv[1:])\n    return 0\n`,
      },
      consoleScripts: { calc: "calc_app:main" },
      summary: "A calculator for the *command line*",
      headers: ["Keywords: calc,math", "License-Expression: MIT"],
    });
  wheels.calc = await calc("1.0");
  wheels.calcYanked = await calc("1.1");
  wheels.calcPost = await calc("1.0.post1");
  wheels.calcRc = await calc("2.0rc1");
  wheels.fastCore = await buildWheel(dir, {
    name: "fast-core",
    version: "1.0",
    tag: `${abi}-${abi}-manylinux_2_17_x86_64`,
    files: { "fast_core/__init__.py": `KIND = '${abi}-manylinux'\n` },
  });
  wheels.stableGlibc = await buildWheel(dir, {
    name: "stable-ext",
    version: "1.0",
    tag: "cp39-abi3-manylinux_2_17_x86_64",
    files: { "stable_ext/__init__.py": "KIND = 'abi3-manylinux'\n" },
  });
  wheels.stableMusl = await buildWheel(dir, {
    name: "stable-ext",
    version: "1.0",
    tag: "cp39-abi3-musllinux_1_2_x86_64",
    files: { "stable_ext/__init__.py": "KIND = 'abi3-musllinux'\n" },
  });
  compiledIndex = await startSimpleIndex({
    flavour: "html",
    projects: {
      "calc-app": [
        { wheel: wheels.calc },
        { wheel: wheels.calcYanked, yanked: "broken" },
        { wheel: wheels.calcPost },
        { wheel: wheels.calcRc },
      ],
      "fast-core": [{ wheel: wheels.fastCore }],
      "stable-ext": [{ wheel: wheels.stableGlibc }, { wheel: wheels.stableMusl }],
    },
  });
}, 300_000);

afterAll(async () => {
  await compiledIndex?.stop();
  await index?.stop();
  await registry?.stop();
  await work?.remove();
});

/** An app's directory: its committed lock (the app and the shared helper) and its spec. */
async function appProject(name: string, wheel: BuiltWheel, script: string, repository = `py/${name}`) {
  const dir = join(work.path, repository.replace("/", "-"));
  await mkdir(dir);
  const lock =
    lockPackageEntry(index.url, name, "1.0", wheel) +
    lockPackageEntry(index.url, "helper-lib", "2.0", wheels.helper as BuiltWheel);
  await writeFile(join(dir, "pylock.toml"), `lock-version = "1.0"\ncreated-by = "tests"\n${lock}`);
  await writeFile(
    join(dir, "mirror.yml"),
    pythonSpec({
      name,
      target: { registry: registry.host, repository },
      source: { type: "pylock", path: `${repository.replace("/", "-")}/pylock.toml` },
      python: {
        version: interpreter.version,
        abi: interpreter.abi,
        interpreter_package: `${registry.host}/py/cpython:${interpreter.version}`,
      },
      tests: [{ name: "greets", command: `${script} pkg | grep -qx "${script} pkg"` }],
    }),
  );
  return dir;
}

const envOf = (dir: string) => ({
  HOME: dir,
  PKG_HOME: join(dir, "pkg-home"),
  PATH: "/usr/bin:/bin",
  TMPDIR: dir,
  PKG_MIRROR_UV: join(work.path, "no-such-uv"),
});

/** plan, prepare, the native test leg and push of one app, each as CI runs it; the run summary. */
async function mirrorApp(name: string, wheel: BuiltWheel, script: string) {
  const dir = await appProject(name, wheel, script);
  const env = envOf(dir);
  const step = async (args: string[]) => {
    const result = await runCli(mirrorBin, ["package", "pipeline", ...args], { cwd: dir, env });
    expect(result.code, `${args[0]}: ${result.stderr}`).toBe(0);
    return result;
  };
  await step(["plan", "-o", "plan.json"]);
  const plan = JSON.parse(await readFile(join(dir, "plan.json"), "utf8")) as PlanDocument;
  const tag = plan.versions[0]?.version as string;
  await step(["prepare", "--plan", "plan.json", "--version", tag]);
  const prepared = JSON.parse(
    await readFile(join(dir, "bundles", `prepared-${tag}.json`), "utf8"),
  ) as PreparedVersion;
  const test = ["test", "--plan", "plan.json", "--leg", "linux/amd64", "--bundles-dir", "bundles"];
  await step([...test, "--junit-dir", "junit"]);
  await step([
    "push",
    "--plan",
    "plan.json",
    "--bundles-dir",
    "bundles",
    "--junit-dir",
    "junit",
    "--write-summary",
    "run-summary.json",
  ]);
  const summary = JSON.parse(await readFile(join(dir, "run-summary.json"), "utf8")) as RunSummary;
  return { tag, prepared, summary };
}

const host = () => new URL(index.url).hostname;

describe("pipeline push of environment packages", () => {
  it("registers each wheel layer standalone, mounts the app's layers from there, and a second app reuses the shared wheel", async () => {
    const hello = await mirrorApp("hello-app", wheels.hello as BuiltWheel, "hello");
    const [helloRow] = hello.summary.versions;
    expect(helloRow?.status).toBe("published");
    // both wheels were registered by this run, then mounted into the app's repository
    expect(helloRow?.layer_reuse).toEqual({ mounted: 2, uploaded: 0, verified: 0 });
    const helperRepository = `pip-packages/${host()}/helper-lib`;
    const helper = openRegistry({ host: registry.host, repository: helperRepository });
    expect(await helper.listTags()).toEqual([wheels.helper?.sha256]);
    const layers = hello.prepared.bundles[0]?.layers ?? [];
    const helperLayer = layers.find((l) => l.wheel.package === "helper-lib");
    const standalone = JSON.parse(
      (await helper.fetchManifest(wheels.helper?.sha256 as string))?.bytes.toString() ?? "{}",
    ) as { layers: Array<{ digest: string }> };
    expect(standalone.layers.map((l) => l.digest)).toEqual([helperLayer?.digest]);

    const hola = await mirrorApp("hola-app", wheels.hola as BuiltWheel, "hola");
    const [holaRow] = hola.summary.versions;
    expect(holaRow?.status).toBe("published");
    expect(holaRow?.layer_reuse.mounted).toBe(2);
    // the shared wheel was found registered, not pushed again
    expect(await helper.listTags()).toEqual([wheels.helper?.sha256]);
    const holaLayers = hola.prepared.bundles[0]?.layers ?? [];
    expect(holaLayers.find((l) => l.wheel.package === "helper-lib")?.digest).toBe(helperLayer?.digest);

    for (const [name, script] of [
      ["hello-app", "hello"],
      ["hola-app", "hola"],
    ] as const) {
      const run = await runCli(
        pkgBin,
        ["exec", `${registry.host}/py/${name}:1.0`, "--", script, "pkg", "world"],
        { env: { PKG_HOME: join(work.path, `clean-${name}`), PATH: "/usr/bin:/bin" } },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout.trim()).toBe(`${script} pkg world`);
    }
  });

  it("runs whole on one machine with pipeline run: planned, prepared, tested on the native leg and pushed", async () => {
    const dir = await appProject("hello-app", wheels.hello as BuiltWheel, "hello", "py/hello-run");
    const result = await runCli(
      mirrorBin,
      ["package", "pipeline", "run", "--work-dir", "run", "--format", "json"],
      {
        cwd: dir,
        env: envOf(dir),
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.versions.map((v) => v.status)).toEqual(["published"]);
    // every wheel was registered by the first test already: each layer mounts
    expect(summary.versions[0]?.layer_reuse).toEqual({ mounted: 2, uploaded: 0, verified: 0 });
  });

  it("mirrors a pypi app with compiled-looking wheels: lock derived by uv, the glibc key's manylinux wheels selected, tested, pushed and run", async () => {
    const dir = join(work.path, "calc-app");
    await mkdir(dir);
    await writeFile(
      join(dir, "mirror.yml"),
      pythonSpec({
        name: "calc-app",
        target: { registry: registry.host, repository: "py/calc-app" },
        source: { type: "pypi", indexes: [{ url: compiledIndex.base }] },
        python: {
          version: interpreter.version,
          abi: interpreter.abi,
          interpreter_package: `${registry.host}/py/cpython:${interpreter.version}`,
        },
        wheels: { "linux/amd64+libc.glibc": null },
        tests: [{ name: "calcs", command: "calc 1 2" }],
      }),
    );
    const env = { ...envOf(dir), PKG_MIRROR_UV: uv, UV_CACHE_DIR: join(work.path, "uv-cache") };
    const result = await runCli(
      mirrorBin,
      ["package", "pipeline", "run", "--work-dir", "run", "--format", "json"],
      {
        cwd: dir,
        env,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    // the yanked 1.1 is not a version; the post- and pre-release are, in PEP 440 order
    expect(summary.versions.map((v) => [v.version.split("_")[0], v.status])).toEqual([
      ["1.0", "published"],
      ["1.0.post1", "published"],
      ["2.0rc1", "published"],
    ]);
    // 1.0 cascades (exact, rolling and latest); the PEP 440 forms the package grammar cannot tag
    // are published under their builds, and the newest release of them takes latest (a
    // pre-release never does)
    const tags = await openRegistry({ host: registry.host, repository: "py/calc-app" }).listTags();
    const builds = summary.versions.map((v) => v.version);
    expect(tags.filter((t) => !t.startsWith("__pkg.")).sort()).toEqual(
      [...builds, "1", "1.0", "latest"].sort(),
    );
    expect(summary.versions.map((v) => v.cascade_tags_written)).toEqual([
      [builds[0], "1.0", "1", "latest"],
      [builds[1], "latest"],
      [builds[2]],
    ]);
    // planned again: every version is published, nothing to do
    const again = await runCli(
      mirrorBin,
      ["package", "pipeline", "run", "--work-dir", "run2", "--format", "json"],
      {
        cwd: dir,
        env,
      },
    );
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as RunSummary).versions).toEqual([]);
    const post = await runCli(
      pkgBin,
      ["exec", `${registry.host}/py/calc-app:${builds[1]}`, "--", "calc", "post"],
      {
        env: { PKG_HOME: join(work.path, "clean-calc-post"), PATH: "/usr/bin:/bin" },
      },
    );
    expect(post.code, post.stderr).toBe(0);
    expect(post.stdout.trim()).toBe(`1.0.post1 ${interpreter.abi}-manylinux abi3-manylinux ['post']`);
    const latest = await runCli(pkgBin, ["exec", `${registry.host}/py/calc-app`, "--", "calc"], {
      env: { PKG_HOME: join(work.path, "clean-calc-post"), PATH: "/usr/bin:/bin" },
    });
    expect(latest.stdout.trim()).toBe(`1.0.post1 ${interpreter.abi}-manylinux abi3-manylinux []`);
    const lock = await readFile(join(dir, "run", "locks", "pylock.calc-app-1-0.toml"), "utf8");
    expect(lock).toContain(wheels.stableMusl?.filename);
    const prepared = JSON.parse(
      await readFile(join(dir, "run", "bundles", `prepared-${builds[0]}.json`), "utf8"),
    ) as PreparedVersion;
    expect(prepared.bundles.map((b) => b.platform)).toEqual(["linux/amd64+libc.glibc"]);
    expect(prepared.bundles[0]?.layers?.map((l) => l.wheel.name).sort()).toEqual(
      [wheels.calc?.filename, wheels.fastCore?.filename, wheels.stableGlibc?.filename].sort(),
    );

    const run = await runCli(pkgBin, ["exec", `${registry.host}/py/calc-app:1.0`, "--", "calc", "7"], {
      env: { PKG_HOME: join(work.path, "clean-calc"), PATH: "/usr/bin:/bin" },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(`1.0 ${interpreter.abi}-manylinux abi3-manylinux ['7']`);

    // no CATALOG.md: describe generates the README from the root wheel of the newest derived lock
    const described = await runCli(
      mirrorBin,
      ["package", "pipeline", "describe", "--locks-dir", "run/locks", "--format", "json"],
      { cwd: dir, env },
    );
    expect(described.code, described.stderr).toBe(0);
    expect(JSON.parse(described.stdout)).toMatchObject({ status: "published", generated: true });
    const target = openRegistry({ host: registry.host, repository: "py/calc-app" });
    const desc = JSON.parse((await target.fetchManifest("__pkg.desc"))?.bytes.toString() ?? "{}") as {
      layers: Array<{ mediaType: string; digest: string; size: number }>;
    };
    const markdown = desc.layers.find((l) => l.mediaType === "text/markdown");
    const readme = await text(await target.fetchBlob(markdown?.digest ?? "", markdown?.size ?? 0));
    expect(readme).toBe("A calculator for the \\*command line\\*\n\nKeywords: calc, math\n\nLicense: MIT\n");
    // without a derived lock there is nothing to describe, and that is no error
    const none = await runCli(
      mirrorBin,
      ["package", "pipeline", "describe", "--locks-dir", "no-locks", "--format", "json"],
      { cwd: dir, env },
    );
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout).status).toBe("nothing_to_describe");
  });

  it("package sync mirrors a pylock app in one process: built, its wheel layers mounted from the shared ones, runnable", async () => {
    const dir = await appProject("hello-app", wheels.hello as BuiltWheel, "hello", "py/hello-sync");
    const sync = (args: string[]) =>
      runCli(mirrorBin, ["package", "sync", "--work-dir", "work", "--format", "json", ...args], {
        cwd: dir,
        env: envOf(dir),
      });
    const planned = await sync(["--dry-run"]);
    expect(planned.code, planned.stderr).toBe(0);
    const dry = JSON.parse(planned.stdout) as SyncReport;
    expect(dry.versions.map((v) => v.platforms.map((p) => [p.platform, p.status]))).toEqual([
      [["linux/amd64", "planned"]],
    ]);
    const result = await sync([]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as SyncReport;
    expect(report.versions.map((v) => v.platforms.map((p) => [p.platform, p.status]))).toEqual([
      [["linux/amd64", "published"]],
    ]);
    // both wheels were registered by an earlier test: each layer mounts
    expect(report.versions[0]?.layer_reuse).toEqual({ mounted: 2, uploaded: 0, verified: 0 });
    const run = await runCli(pkgBin, ["exec", `${registry.host}/py/hello-sync:1.0`, "--", "hello", "sync"], {
      env: { PKG_HOME: join(work.path, "clean-sync"), PATH: "/usr/bin:/bin" },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("hello sync");
    // planned again: nothing left to do
    const again = JSON.parse((await sync([])).stdout) as SyncReport;
    expect(again.versions.flatMap((v) => v.platforms.filter((p) => p.status !== "skipped"))).toEqual([]);
  });
});
