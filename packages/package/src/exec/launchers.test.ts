import { describe, expect, it } from "vitest";
import type { EnvPlan } from "./compose-env.js";
import { type LauncherSpec, launcherFileName, renderLauncher, shQuote } from "./launchers.js";

const env: EnvPlan = {
  constants: [{ key: "MODE", value: "it's" }],
  paths: [{ key: "PATH", values: ["/p/a/bin", "/p/d/bin"] }],
};

const spec = (target: LauncherSpec["target"], args: string[] = []): LauncherSpec => ({
  name: "fmt",
  identifier: "r.example/acme/tool:1.0",
  env,
  target,
  args,
  entrypointsDir: "/p/a/entrypoints",
});

describe("renderLauncher (sh)", () => {
  it("sets constants, then prepends paths to the inherited value, then execs the target with its args before the user's", () => {
    expect(renderLauncher(spec({ kind: "path", path: "/p/a/bin/tool" }, ["fmt", "--check"]), "unix")).toBe(
      [
        "#!/bin/sh",
        "# fmt: launcher of r.example/acme/tool:1.0, written by pkg",
        `MODE='it'\\''s'; export MODE`,
        `PATH='/p/a/bin:/p/d/bin'"\${PATH:+:$PATH}"; export PATH`,
        `exec '/p/a/bin/tool' 'fmt' '--check' "$@"`,
        "",
      ].join("\n"),
    );
  });

  it("for a name looked up when it runs, first leaves its own directory off PATH, so it never runs itself", () => {
    const text = renderLauncher(spec({ kind: "lookup", name: "python" }), "unix");
    expect(text).toContain(`[ "$pkg_dir" = '/p/a/entrypoints' ] || pkg_path=`);
    expect(text.indexOf("IFS=$pkg_ifs PATH=$pkg_path")).toBeLessThan(text.indexOf("PATH='/p/a/bin"));
    expect(text.trimEnd().split("\n").at(-1)).toBe(`exec 'python' "$@"`);
  });

  it("for a target the package ships but cannot run, says so on stderr and exits 65, running nothing", () => {
    const text = renderLauncher(spec({ kind: "refuse", message: "/p/a/bin/tool: not executable" }), "unix");
    expect(text).toContain(`echo 'pkg: /p/a/bin/tool: not executable' >&2\nexit 65\n`);
    expect(text).not.toContain("exec ");
  });

  it("quotes every word so the shell reads it back exactly", () => {
    expect(shQuote("")).toBe("''");
    expect(shQuote("a b")).toBe("'a b'");
    expect(shQuote('$(id) `x` "q" it\'s')).toBe(`'$(id) \`x\` "q" it'\\''s'`);
  });
});

describe("renderLauncher (cmd)", () => {
  it("is a .cmd with CRLF lines: set, prepend with ';', run with %*, and pass the exit code on", () => {
    expect(launcherFileName("fmt", "windows")).toBe("fmt.cmd");
    expect(launcherFileName("fmt", "unix")).toBe("fmt");
    const text = renderLauncher(spec({ kind: "path", path: "C:\\p\\tool.exe" }, ["100%"]), "windows");
    expect(text.split("\r\n")).toEqual([
      "@echo off",
      "rem fmt: launcher of r.example/acme/tool:1.0, written by pkg",
      "setlocal",
      `set "MODE=it's"`,
      `set "PATH=/p/a/bin;/p/d/bin;%PATH%"`,
      `"C:\\p\\tool.exe" "100%%" %*`,
      "exit /b %ERRORLEVEL%",
      "",
    ]);
  });
});
