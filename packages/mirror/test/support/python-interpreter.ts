// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${installPath} placeholders are the metadata written
// An interpreter package made from the machine's Python with our own tool, for the environment
// package tests: the interpreter executable (the system one, /usr/bin/python3, when present: it
// links only system libraries) copied to bin/python and its standard library (without
// site-packages, dist-packages, tests, __pycache__ and the GUI/packaging extras) to
// lib/python3.X/, PYTHONHOME pointing the copy at itself; `pkg package create` bundles it and
// `pkg package push` publishes it. By hand:
//
//   mkdir -p tree/bin tree/lib && cp "$(python3 -c 'import os,sys;print(os.path.realpath(sys.executable))')" tree/bin/python
//   cp -r "$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["stdlib"])')" tree/lib/   # minus site-packages, test, __pycache__
//   echo '{"type":"bundle","version":1,"env":[{"key":"PATH","type":"path","value":"${installPath}/bin","required":true},
//          {"key":"PYTHONHOME","type":"constant","value":"${installPath}"}]}' > metadata.json
//   pkg package create tree -o python.tar.zst -m metadata.json
//   pkg package push -i REGISTRY/python/cpython:3.11 -p linux/amd64 -m metadata.json python.tar.zst
import { existsSync } from "node:fs";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { runCli, runCommand } from "@pkg/testkit";
import { pkgBin } from "./sync-run.js";

const SKIPPED = new Set([
  "site-packages",
  "dist-packages",
  "test",
  "tests",
  "__pycache__",
  "idlelib",
  "tkinter",
  "turtledemo",
  "lib2to3",
  "ensurepip",
  "pydoc_data",
]);

export interface InterpreterTree {
  /** The content tree (`bin/python`, `lib/python3.X/`). */
  tree: string;
  metadata: string;
  /** `3.11.7`, `cp311`. */
  version: string;
  abi: string;
}

/** Copies the machine's interpreter into `dir/tree` and writes `dir/metadata.json`. */
export async function machineInterpreter(dir: string): Promise<InterpreterTree> {
  const python = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const probe = await runCommand(python, [
    "-c",
    "import os, sys, sysconfig; print(os.path.realpath(sys.executable)); print(sysconfig.get_paths()['stdlib']); print('%d.%d.%d' % sys.version_info[:3]); print('cp%d%d' % sys.version_info[:2])",
  ]);
  const [executable, stdlib, version, abi] = probe.stdout.trim().split("\n") as [
    string,
    string,
    string,
    string,
  ];
  const tree = join(dir, "tree");
  await mkdir(join(tree, "bin"), { recursive: true });
  await cp(executable, join(tree, "bin", "python"));
  await cp(stdlib, join(tree, "lib", basename(stdlib)), {
    recursive: true,
    dereference: true,
    filter: (source) => !SKIPPED.has(basename(source)) && !source.endsWith(".pyc"),
  });
  const metadata = join(dir, "metadata.json");
  await writeFile(
    metadata,
    JSON.stringify({
      type: "bundle",
      version: 1,
      env: [
        { key: "PATH", type: "path", value: "${installPath}/bin", required: true },
        { key: "PYTHONHOME", type: "constant", value: "${installPath}" },
      ],
    }),
  );
  return { tree, metadata, version, abi };
}

/**
 * The machine's interpreter as a package (`pkg package create` of `machineInterpreter`'s tree)
 * pushed to `<registryHost>/py/cpython:<its version>`, as a mirror of it would publish it.
 */
export async function publishMachineInterpreter(dir: string, registryHost: string): Promise<InterpreterTree> {
  const interpreter = await machineInterpreter(dir);
  const bundle = join(dir, "python.tar.zst");
  const created = await runCli(pkgBin, [
    "package",
    "create",
    interpreter.tree,
    "-o",
    bundle,
    "-m",
    interpreter.metadata,
  ]);
  if (created.code !== 0) throw new Error(`pkg package create of the interpreter: ${created.stderr}`);
  const reference = `${registryHost}/py/cpython:${interpreter.version}`;
  const pushed = await runCli(pkgBin, [
    "package",
    "push",
    "-i",
    reference,
    "-p",
    "linux/amd64",
    "-m",
    interpreter.metadata,
    bundle,
  ]);
  if (pushed.code !== 0) throw new Error(`pkg package push of the interpreter: ${pushed.stderr}`);
  return interpreter;
}
