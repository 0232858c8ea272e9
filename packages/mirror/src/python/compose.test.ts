import { spawnSync } from "node:child_process";
import { ExitCode } from "@pkg/common";
import { parseMetadata, serializeMetadata } from "@pkg/package";
import { describe, expect, it } from "vitest";
import { type ComposeInput, composeEnvMetadata, launcherProgram, pinnedInterpreter } from "./compose.js";
import type { ConsoleScript } from "./wheel-layout.js";

const DIGEST = `sha256:${"ab".repeat(32)}`;
const script = (name: string, module = "m", attribute = "main"): ConsoleScript => ({
  name,
  module,
  attribute,
  extras: [],
});

function input(overrides: Partial<ComposeInput> = {}): ComposeInput {
  return {
    app: "Demo_App",
    appVersion: "2.1",
    interpreter: "ghcr.io/acme/python:3.13",
    interpreterDigest: DIGEST,
    entrypoints: "auto",
    wheels: [
      {
        wheel: "demo_app-2.1-py3-none-any.whl",
        distribution: "demo-app",
        consoleScripts: [script("demo", "demo.cli", "App.run")],
      },
      { wheel: "helper-1.0-py3-none-any.whl", distribution: "helper", consoleScripts: [script("helper")] },
      { wheel: "lib-1.0-py3-none-any.whl", distribution: "lib", consoleScripts: [] },
    ],
    ...overrides,
  };
}

function fails(fn: () => unknown, pattern: RegExp): void {
  expect(fn).toThrow(
    expect.objectContaining({ exitCode: ExitCode.Data, message: expect.stringMatching(pattern) }),
  );
}

const names = (i: ComposeInput) => (composeEnvMetadata(i).entrypoints ?? []).map((e) => e.name);

describe("composeEnvMetadata", () => {
  it("pins the interpreter privately, sets PYTHONPATH/PATH, launches python (not python3), adds a bare python; the package parser accepts it", () => {
    const metadata = composeEnvMetadata(input());
    expect(metadata).toEqual({
      type: "bundle",
      version: 1,
      env: [
        { key: "PYTHONPATH", type: "path", value: `\${installPath}/lib/site-packages`, required: true },
        { key: "PATH", type: "path", value: `\${installPath}/bin`, required: false },
        { key: "PYTHONDONTWRITEBYTECODE", type: "constant", value: "1" },
      ],
      binaries: [],
      entrypoints: [
        {
          name: "demo",
          target: "python",
          args: ["-c", launcherProgram(script("demo", "demo.cli", "App.run"))],
        },
        { name: "python", target: "python" },
      ],
      dependencies: [
        { identifier: `ghcr.io/acme/python:3.13@${DIGEST}`, name: "python", visibility: "private" },
      ],
    });
    expect(parseMetadata(serializeMetadata(metadata).toString("utf8"), "metadata.json")).toEqual(metadata);
  });

  it("auto admits the root's scripts, all every wheel's, a list only its names within their bounds", () => {
    expect(names(input())).toEqual(["demo", "python"]);
    expect(names(input({ entrypoints: "all" }))).toEqual(["demo", "helper", "python"]);
    expect(names(input({ entrypoints: [{ name: "helper" }] }))).toEqual(["helper", "python"]);
    expect(
      names(
        input({
          entrypoints: [
            { name: "helper", min_version: "2.1" },
            { name: "demo", max_version: "2.1" },
          ],
        }),
      ),
    ).toEqual(["helper", "python"]);
    // an unparsable app version keeps every explicit entry
    expect(
      names(input({ appVersion: "not-pep440!", entrypoints: [{ name: "demo", max_version: "1" }] })),
    ).toEqual(["demo", "python"]);
  });

  it("a wheel's own python script replaces the bare one", () => {
    const wheels = [
      {
        wheel: "demo_app-2.1-py3-none-any.whl",
        distribution: "demo-app",
        consoleScripts: [script("python", "shim")],
      },
    ];
    expect(composeEnvMetadata(input({ wheels })).entrypoints).toEqual([
      { name: "python", target: "python", args: ["-c", launcherProgram(script("python", "shim"))] },
    ]);
  });

  it("a library (no admitted console script) publishes no entrypoints", () => {
    const metadata = composeEnvMetadata(input({ app: "lib" }));
    expect(metadata.entrypoints).toBeUndefined();
    expect(metadata.dependencies).toHaveLength(1);
  });

  it("collisions, missing explicit names, module-only scripts and bad names are 65", () => {
    const clash = input({
      wheels: [
        { wheel: "a-1-py3-none-any.whl", distribution: "demo-app", consoleScripts: [script("tool")] },
        { wheel: "b-1-py3-none-any.whl", distribution: "b", consoleScripts: [script("tool")] },
      ],
    });
    expect(names(clash)).toEqual(["tool", "python"]); // auto admits only the root's
    fails(
      () => composeEnvMetadata({ ...clash, entrypoints: "all" }),
      /entrypoint tool is provided by both a-1-py3-none-any.whl and b-1/,
    );
    fails(() => composeEnvMetadata({ ...clash, entrypoints: [{ name: "tool" }] }), /provided by both/);
    fails(
      () => composeEnvMetadata(input({ entrypoints: [{ name: "nope" }] })),
      /names nope, which no selected wheel provides/,
    );
    const moduleOnly = input({
      wheels: [{ wheel: "d.whl", distribution: "demo-app", consoleScripts: [script("demo", "demo", "")] }],
    });
    fails(() => composeEnvMetadata(moduleOnly), /console script demo = demo names no function/);
    const badName = input({
      wheels: [{ wheel: "d.whl", distribution: "demo-app", consoleScripts: [script("-weird")] }],
    });
    fails(() => composeEnvMetadata(badName), /entrypoints\[0\]\.name/);
  });
});

describe("pinnedInterpreter", () => {
  it("keeps the tag as information and refuses a different pin", () => {
    expect(pinnedInterpreter(`ghcr.io/acme/python@${DIGEST}`, DIGEST)).toBe(`ghcr.io/acme/python@${DIGEST}`);
    fails(
      () => pinnedInterpreter(`ghcr.io/acme/python@sha256:${"cd".repeat(32)}`, DIGEST),
      /is pinned to sha256:cdcd/,
    );
    fails(() => pinnedInterpreter("ghcr.io/acme/python:3", "sha256:short"), /is not sha256:<64 hex>/);
  });
});

describe("launcherProgram", () => {
  it("imports the module and walks the attribute chain, as python3 runs it", () => {
    const program = launcherProgram(script("json-tool", "json", "JSONDecoder.__name__.upper"));
    // the chain resolves to str.upper bound to "JSONDecoder": called with no arguments it returns
    // "JSONDECODER", which sys.exit prints to stderr with status 1; argv[0] is the script's name
    const run = spawnSync("python3", ["-c", `${program.replace("sys.exit(", "print(sys.argv[0], ")}`, "x"], {
      encoding: "utf8",
    });
    expect(run.stdout.trim()).toBe("json-tool JSONDECODER");
  });
});
