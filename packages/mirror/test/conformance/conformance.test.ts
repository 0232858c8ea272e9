/// <reference types="vite/client" />
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decidingDiagnostic, SpecError } from "../../src/spec/diagnostics.js";
import { loadMirrorSpec } from "../../src/spec/loader.js";
import type { ConformanceCase } from "../support/spec-case.js";

// Every `*.cases.ts` beside this file contributes rows.
const modules = import.meta.glob<{ cases: ConformanceCase[] }>("./*.cases.ts", { eager: true });
const tables = Object.entries(modules).map(
  ([file, mod]) => [file.replace(/^\.\/|\.cases\.ts$/g, ""), mod.cases] as const,
);

let work: TempDir;
beforeAll(async () => {
  work = await tempDir("mirror-conformance-");
});
afterAll(async () => {
  await work?.remove();
});

let counter = 0;
async function load(row: ConformanceCase) {
  const dir = join(work.path, `case-${counter++}`);
  await mkdir(join(dir, ".git"), { recursive: true });
  for (const [name, text] of Object.entries(row.files ?? {})) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  for (const [name, target] of Object.entries(row.symlinks ?? {})) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await symlink(target, join(dir, name));
  }
  const file = join(dir, "mirror.yml");
  await writeFile(file, row.yaml);
  try {
    return await loadMirrorSpec(file);
  } finally {
    if (row.exit === 0) await rm(dir, { recursive: true, force: true });
  }
}

describe.each(tables)("%s", (_section, rows) => {
  it.each(rows.map((row) => [row.rule, row] as const))("%s", async (_rule, row) => {
    if (row.exit === 0) {
      const loaded = await load(row);
      row.check?.(loaded.spec as Record<string, unknown>, loaded.warnings);
      return;
    }
    const error = await load(row).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(row.path, "a refused row names the key path it expects").toBeDefined();
    expect(error, "the spec must be refused").toBeInstanceOf(SpecError);
    const { diagnostics, exitCode, message } = error as SpecError;
    const deciding = decidingDiagnostic(diagnostics);
    expect({ exit: exitCode, path: deciding?.keyPath }).toEqual({ exit: row.exit, path: row.path });
    expect(deciding?.exitCode).toBe(row.exit);
    expect(message).toContain(`: ${deciding?.keyPath || "(document)"}: `);
    if (row.message) expect(deciding?.message).toMatch(row.message);
    if (row.problems) expect(diagnostics.map((d) => d.keyPath)).toEqual(row.problems);
  });
});
