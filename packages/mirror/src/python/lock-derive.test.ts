import { describe, expect, it } from "vitest";
import {
  derivedLockName,
  finishDerivedLock,
  lockIndexName,
  relaxRequiresPython,
  requirementLine,
  uvCompileArgs,
  uvIndexVariablePrefix,
} from "./lock-derive.js";

const request = {
  package: "Hello_App",
  version: "1.2.0",
  pythonVersion: "3.13.1",
  universal: true,
  extras: [] as string[],
  exclude: [] as string[],
  indexes: [{ url: "https://a.example/simple/" }],
  output: "/tmp/x/pylock.toml",
};

describe("uvCompileArgs", () => {
  it("one index is the default index; X.Y of the Python version; universal; first-index pinned", () => {
    expect(uvCompileArgs(request)).toEqual([
      "pip",
      "compile",
      "-",
      "--format",
      "pylock.toml",
      "--python-version",
      "3.13",
      "--universal",
      "--no-build",
      "--index-strategy",
      "first-index",
      "--default-index",
      "https://a.example/simple/",
      "--no-config",
      "--no-header",
      "-o",
      "/tmp/x/pylock.toml",
    ]);
  });

  it("every index but the last is --index, the last --default-index; named when credentialed; excludes; not universal", () => {
    const args = uvCompileArgs({
      ...request,
      universal: false,
      exclude: ["setuptools", "pip"],
      indexes: [
        { url: "https://first.example/simple/", name: lockIndexName(0) },
        { url: "https://second.example/simple/" },
        { url: "https://last.example/simple/", name: lockIndexName(2) },
      ],
    });
    expect(args).not.toContain("--universal");
    expect(args.join(" ")).toContain(
      "--index pkg-index-0=https://first.example/simple/ --index https://second.example/simple/ --default-index pkg-index-2=https://last.example/simple/ --no-emit-package setuptools --no-emit-package pip",
    );
  });
});

describe("names", () => {
  it.each([
    ["Hello_App", "1.2.0", "pylock.hello-app-1-2-0.toml"],
    ["pycowsay", "0.0.0.2", "pylock.pycowsay-0-0-0-2.toml"],
    ["zope.interface", "7.0rc1", "pylock.zope-interface-7-0rc1.toml"],
  ])("%s %s → %s", (pkg, version, name) => {
    expect(derivedLockName(pkg, version)).toBe(name);
  });

  it("index variables are upper case with _ for every non-alphanumeric", () => {
    expect(uvIndexVariablePrefix(lockIndexName(3))).toBe("UV_INDEX_PKG_INDEX_3_");
  });

  it("the requirement carries the extras", () => {
    expect(requirementLine(request)).toBe("Hello_App==1.2.0\n");
    expect(requirementLine({ ...request, extras: ["cli", "fast"] })).toBe("Hello_App[cli,fast]==1.2.0\n");
  });
});

describe("post-processing", () => {
  it.each([
    [">=3.13.1", ">=3.13"],
    [">=3.13", ">=3.13"],
    [">=3.11.7, <4", ">=3.11, <4"],
    ["==3.13.1", "==3.13.1"],
    [">=3.13.1.*", ">=3.13.1.*"],
  ])("requires-python %s is relaxed to %s", (before, after) => {
    expect(relaxRequiresPython(`lock-version = "1.0"\nrequires-python = "${before}"\n`)).toBe(
      `lock-version = "1.0"\nrequires-python = "${after}"\n`,
    );
  });

  it("only the top-level line is touched", () => {
    const text = 'requires-python = ">=3.9"\n[[packages]]\nrequires-python = ">=3.8.1"\n';
    expect(relaxRequiresPython(text)).toBe(text);
  });

  it("replaces uv's leading comments with the provenance header", () => {
    const out = finishDerivedLock(
      '# uv said\n#   this\nlock-version = "1.0"\nrequires-python = ">=3.13.1"\n',
      {
        package: "hello-app",
        version: "1.0",
        pythonVersion: "3.13.1",
        universal: true,
        resolver: "uv 0.13.8",
        generatedAt: new Date("2025-03-04T05:06:07.123Z"),
      },
    );
    expect(out).toBe(
      [
        "# Derived by pkg-mirror pipeline plan from a pypi source (uv pip compile).",
        "# package: hello-app",
        "# version: 1.0",
        "# python: 3.13.1 (universal)",
        "# resolver: uv 0.13.8",
        "# generated_at: 2025-03-04T05:06:07Z",
        "#",
        'lock-version = "1.0"',
        'requires-python = ">=3.13"',
        "",
      ].join("\n"),
    );
  });
});
