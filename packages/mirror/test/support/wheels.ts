// Real wheels for the Python tests, built here: a PEP 427 zip (python3 -m zipfile) holding the
// modules, `<dist>.dist-info/{METADATA,WHEEL,entry_points.txt,RECORD}` with RECORD's sha256
// (urlsafe base64, unpadded) and sizes of every other file.
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { runCommand } from "@pkg/testkit";

export interface WheelSpec {
  /** Distribution name as published (`My_App`). */
  name: string;
  version: string;
  /** The tag set, `py3-none-any` by default. */
  tag?: string;
  /** Files relative to site-packages. */
  files?: Record<string, string>;
  /** `console_scripts` entries: name → `module:function`. */
  consoleScripts?: Record<string, string>;
  requires?: string[];
  summary?: string;
  /** More core-metadata header lines (`Keywords: a,b`, `License-Expression: MIT`). */
  headers?: string[];
  /** Written after RECORD is computed (a file RECORD does not list, or altered content): a tampered wheel. */
  afterRecord?: Record<string, string>;
}

export interface BuiltWheel {
  filename: string;
  path: string;
  sha256: string;
  size: number;
}

/** The escaped name of a wheel file or dist-info directory (PEP 427). */
export function escapedName(name: string): string {
  return name.replace(/[-_.]+/g, "_");
}

export async function buildWheel(outDir: string, spec: WheelSpec): Promise<BuiltWheel> {
  const tag = spec.tag ?? "py3-none-any";
  const stem = `${escapedName(spec.name)}-${spec.version}`;
  const distInfo = `${stem}.dist-info`;
  const files: Record<string, string> = { ...(spec.files ?? {}) };
  files[`${distInfo}/METADATA`] = [
    "Metadata-Version: 2.1",
    `Name: ${spec.name}`,
    `Version: ${spec.version}`,
    ...(spec.summary ? [`Summary: ${spec.summary}`] : []),
    ...(spec.headers ?? []),
    ...(spec.requires ?? []).map((r) => `Requires-Dist: ${r}`),
    "",
  ].join("\n");
  files[`${distInfo}/WHEEL`] = [
    "Wheel-Version: 1.0",
    "Generator: pkg-tests",
    `Root-Is-Purelib: ${tag.endsWith("-any")}`,
    ...tagLines(tag),
    "",
  ].join("\n");
  if (spec.consoleScripts) {
    files[`${distInfo}/entry_points.txt`] = [
      "[console_scripts]",
      ...Object.entries(spec.consoleScripts).map(([n, ref]) => `${n} = ${ref}`),
      "",
    ].join("\n");
  }
  const record = Object.entries(files).map(([path, content]) => {
    const digest = createHash("sha256").update(content).digest("base64url");
    return `${path},sha256=${digest},${Buffer.byteLength(content)}`;
  });
  files[`${distInfo}/RECORD`] = `${[...record, `${distInfo}/RECORD,,`].join("\n")}\n`;
  Object.assign(files, spec.afterRecord ?? {});

  const staging = join(outDir, `.staging-${stem}-${tag}`);
  await rm(staging, { recursive: true, force: true });
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(staging, path)), { recursive: true });
    await writeFile(join(staging, path), content);
  }
  const filename = `${stem}-${tag}.whl`;
  const path = join(outDir, filename);
  const tops = [...new Set(Object.keys(files).map((p) => p.split("/")[0] as string))];
  await runCommand("python3", ["-m", "zipfile", "-c", path, ...tops], { cwd: staging });
  await rm(staging, { recursive: true, force: true });
  const bytes = await readFile(path);
  return { filename, path, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
}

function tagLines(tagSet: string): string[] {
  const [pys, abis, plats] = tagSet.split("-") as [string, string, string];
  const lines: string[] = [];
  for (const py of pys.split(".")) {
    for (const abi of abis.split("."))
      for (const plat of plats.split(".")) lines.push(`Tag: ${py}-${abi}-${plat}`);
  }
  return lines;
}

/** One `[[packages]]` entry of a PEP 751 lock: the wheel served at `<indexUrl>/files/<filename>`. */
export function lockPackageEntry(
  indexUrl: string,
  name: string,
  version: string,
  wheel: BuiltWheel,
  sha256 = wheel.sha256,
): string {
  return `[[packages]]\nname = "${name}"\nversion = "${version}"\n[[packages.wheels]]\nurl = "${indexUrl}/files/${wheel.filename}"\nhashes = { sha256 = "${sha256}" }\n`;
}
