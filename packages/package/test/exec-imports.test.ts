import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type RunningRegistry, startRegistry, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExecFixture, publishExecFixture } from "./support/exec-fixture.js";
import { runPkg } from "./support/run-pkg.js";

/**
 * `pkg exec` of an installed package is run in loops: what needs no registry loads no HTTP stack
 * (undici, TLS), a good part of its start-up. A preload (given to the bin through NODE_OPTIONS)
 * reports on exit whether undici or Node's TLS module was loaded.
 */
let registry: RunningRegistry;
let work: TempDir;
let fixture: ExecFixture;
let home: string;
let preload: string;

beforeAll(async () => {
  registry = await startRegistry();
  work = await tempDir("pkg-exec-imports-");
  fixture = await publishExecFixture(work.path, `${registry.host}/`);
  home = join(work.path, "home");
  const installed = await runPkg(["exec", fixture.app, "--", "app"], { env: { PKG_HOME: home } });
  expect(installed.code, installed.stderr).toBe(0);
  preload = join(work.path, "report-loads.mjs");
  await writeFile(
    preload,
    `import { createRequire } from "node:module";
const { cache } = createRequire(import.meta.url);
process.on("exit", () => {
  const undici = Object.keys(cache).some((file) => file.includes("/node_modules/undici/"));
  const tls = process.moduleLoadList.includes("NativeModule tls");
  process.stderr.write("LOADED undici=" + undici + " tls=" + tls + "\\n");
});
`,
  );
});

afterAll(async () => {
  await registry?.stop();
  await work?.remove();
});

const loads = async (args: string[]) => {
  const result = await runPkg(["exec", ...args, "--", "app", "ran"], {
    env: { PKG_HOME: home, NODE_OPTIONS: `--import=${pathToFileURL(preload).href}` },
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toBe("app ran\n");
  return result.stderr.split("\n").filter((line) => line.startsWith("LOADED "));
};

describe("pkg exec of an installed package", () => {
  it("loads no HTTP stack with --offline", async () => {
    expect(await loads(["--offline", fixture.app])).toEqual(["LOADED undici=false tls=false"]);
  });

  it("loads none for a digest the store holds", async () => {
    const byDigest = `${registry.host}/acme/app@${fixture.pushed.app.indexDigest}`;
    expect(await loads([byDigest])).toEqual(["LOADED undici=false tls=false"]);
  });

  it("loads it to resolve a tag (the preload sees it)", async () => {
    expect(await loads([fixture.app])).toEqual(["LOADED undici=true tls=true"]);
  });
});
