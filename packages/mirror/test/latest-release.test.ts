import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type RunningRegistry, runCli, startRegistry, type TempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { HELLO_METADATA, mirrorBin, syncWorkspace } from "./support/sync-run.js";

// `--latest` is the newest release of the window: a pre-release newer than it is never taken,
// whatever `skip_prereleases` says, and a window of pre-releases only leaves nothing to do.

let work: TempDir;
let registry: RunningRegistry;

beforeAll(async () => {
  work = await syncWorkspace("pkg-mirror-latest-");
  registry = await startRegistry();
}, 60_000);

afterAll(async () => {
  await registry?.stop();
  await work?.remove();
});

const asset = (version: string) => ({
  assets: { "tool-linux-amd64.tgz": `https://dl.example/${version}/tool-linux-amd64.tgz` },
});

function spec(extra: Record<string, unknown> = {}): string {
  return stringify({
    name: "tool",
    target: { registry: registry.host, repository: "acme/latest" },
    source: {
      type: "url_index",
      versions: { "1.8.0": asset("1.8.0"), "1.9.0": asset("1.9.0"), "2.0.0-rc.1": asset("2.0.0-rc.1") },
    },
    metadata: { default: HELLO_METADATA },
    assets: { "linux/amd64": ["linux-amd64"] },
    platforms: { "linux/amd64": { runner: "ubuntu-24.04" } },
    ...extra,
  });
}

async function run(command: "check" | "sync", name: string, yaml: string, args: string[]) {
  await writeFile(join(work.path, name), yaml);
  const extra = command === "sync" ? ["--dry-run", "--work-dir", "wd"] : [];
  return runCli(mirrorBin, ["package", command, name, "--latest", ...extra, ...args], { cwd: work.path });
}

const versionsOf = (stdout: string): string[] =>
  JSON.parse(stdout).rows?.map((r: { version: string }) => r.version) ??
  JSON.parse(stdout).versions.map((v: { version: string }) => v.version);

describe("--latest", () => {
  for (const command of ["check", "sync"] as const) {
    for (const skip of [undefined, false, true]) {
      it(`${command} takes 1.9.0, not 2.0.0-rc.1 (skip_prereleases ${skip ?? "unset"})`, async () => {
        const extra = skip === undefined ? {} : { skip_prereleases: skip };
        const result = await run(command, `${command}-${skip}.yml`, spec(extra), ["--format", "json"]);
        expect(result.code, result.stderr).toBe(0);
        expect(versionsOf(result.stdout)).toEqual(["1.9.0"]);
      });
    }

    it(`${command}: a window of pre-releases only is nothing to do, said in one info line`, async () => {
      const yaml = spec({ versions: { min: "2.0.0-rc.1" } });
      const result = await run(command, `${command}-only-pre.yml`, yaml, ["--format", "json"]);
      expect(result.code, result.stderr).toBe(0);
      expect(versionsOf(result.stdout)).toEqual([]);
      const said = result.stderr.split("\n").filter((line) => line.startsWith("--latest"));
      expect(said).toEqual([
        "--latest: nothing to do: the version window holds pre-releases only (1), no release",
      ]);
    });
  }
});
