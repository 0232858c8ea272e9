import { shQuote } from "@pkg/common";
import type { EnvOs, EnvPlan } from "./compose-env.js";

/**
 * What a launcher runs: a file found when the package was installed (`path`), a name looked up
 * on PATH when it runs because no package directory holds it (`lookup`), or nothing, because the
 * package ships the name but it cannot run (`refuse`, exit 65 with `message`).
 */
export type LauncherTarget =
  | { kind: "path"; path: string }
  | { kind: "lookup"; name: string }
  | { kind: "refuse"; message: string };

/** One entrypoint's launcher: the package's own (self) environment, the target, and the args before the user's. */
export interface LauncherSpec {
  name: string;
  /** For the comment at the top: the package it belongs to. */
  identifier: string;
  env: EnvPlan;
  target: LauncherTarget;
  args: readonly string[];
  /** The directory the launcher is in: left off PATH before a `lookup`, so it never runs itself. */
  entrypointsDir: string;
}

export { shQuote };

/** The launcher's file name: the entrypoint's name, with `.cmd` on Windows. */
export function launcherFileName(name: string, os: EnvOs): string {
  return os === "windows" ? `${name}.cmd` : name;
}

/** The launcher's text for `os`: a POSIX sh script, or a .cmd on Windows. */
export function renderLauncher(spec: LauncherSpec, os: EnvOs): string {
  return os === "windows" ? renderCmd(spec) : renderSh(spec);
}

function renderSh(spec: LauncherSpec): string {
  const lines = [
    "#!/bin/sh",
    `# ${oneLine(spec.name)}: launcher of ${oneLine(spec.identifier)}, written by pkg`,
  ];
  const { target } = spec;
  if (target.kind === "refuse") {
    lines.push(`echo ${shQuote(`pkg: ${target.message}`)} >&2`, "exit 65");
    return `${lines.join("\n")}\n`;
  }
  if (target.kind === "lookup") {
    lines.push(
      "pkg_path= pkg_ifs=$IFS",
      "IFS=:",
      "set -f",
      `for pkg_dir in $PATH; do [ "$pkg_dir" = ${shQuote(spec.entrypointsDir)} ] || pkg_path=\${pkg_path:+$pkg_path:}$pkg_dir; done`,
      "set +f",
      "IFS=$pkg_ifs PATH=$pkg_path",
      "unset pkg_path pkg_ifs pkg_dir",
    );
  }
  for (const { key, value } of spec.env.constants) lines.push(`${key}=${shQuote(value)}; export ${key}`);
  for (const { key, values } of spec.env.paths)
    lines.push(`${key}=${shQuote(values.join(":"))}"\${${key}:+:$${key}}"; export ${key}`);
  const command = target.kind === "path" ? target.path : target.name;
  lines.push(`exec ${[command, ...spec.args].map(shQuote).join(" ")} "$@"`);
  return `${lines.join("\n")}\n`;
}

/** A word for cmd.exe: double-quoted, `%` doubled (cmd cannot quote a `"` inside one; it is dropped). */
function cmdQuote(word: string): string {
  return `"${word.replaceAll("%", "%%").replaceAll('"', "")}"`;
}

function renderCmd(spec: LauncherSpec): string {
  const lines = [
    "@echo off",
    `rem ${oneLine(spec.name)}: launcher of ${oneLine(spec.identifier)}, written by pkg`,
  ];
  const { target } = spec;
  if (target.kind === "refuse") {
    lines.push(`echo pkg: ${oneLine(target.message).replace(/[&|<>^%]/g, "^$&")} 1>&2`, "exit /b 65");
    return `${lines.join("\r\n")}\r\n`;
  }
  lines.push("setlocal");
  for (const { key, value } of spec.env.constants) lines.push(`set ${cmdQuote(`${key}=${value}`)}`);
  for (const { key, values } of spec.env.paths)
    lines.push(`set "${key}=${values.join(";").replaceAll("%", "%%").replaceAll('"', "")};%${key}%"`);
  const command = target.kind === "path" ? target.path : target.name;
  lines.push(`${[command, ...spec.args].map(cmdQuote).join(" ")} %*`, "exit /b %ERRORLEVEL%");
  return `${lines.join("\r\n")}\r\n`;
}

function oneLine(text: string): string {
  return text.replace(/[\r\n]+/g, " ");
}
