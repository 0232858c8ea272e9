import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cliModuleUrl } from "./bin-entry.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** A workspace of two packages: `tool` with its bin, and `lib`; files dated in seconds. */
async function workspace(files: Record<string, number>) {
  dir = await mkdtemp(join(tmpdir(), "bin-entry-"));
  for (const [path, seconds] of Object.entries(files)) {
    const file = join(dir, path);
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, "");
    await utimes(file, seconds, seconds);
  }
  return (url: URL) => url.pathname.slice(pathToFileURL(dir as string).pathname.length + 1);
}

describe("cliModuleUrl", () => {
  const bin = () => pathToFileURL(join(dir as string, "tool", "bin", "tool.js")).href;

  it("runs the modules tsc wrote when there is no bundle", async () => {
    const rel = await workspace({ "tool/bin/tool.js": 1, "tool/tsconfig.tsbuildinfo": 10 });
    expect(rel(cliModuleUrl(bin()))).toBe("tool/dist/cli/main.js");
  });

  it("runs the bundle while it is newer than every package's build", async () => {
    const rel = await workspace({
      "tool/bin/tool.js": 1,
      "tool/tsconfig.tsbuildinfo": 10,
      "lib/tsconfig.tsbuildinfo": 11,
      "tool/dist/cli-bundle/main.js": 12,
    });
    expect(rel(cliModuleUrl(bin()))).toBe("tool/dist/cli-bundle/main.js");
  });

  it("runs the modules tsc wrote once any package was built after the bundle", async () => {
    const rel = await workspace({
      "tool/bin/tool.js": 1,
      "tool/tsconfig.tsbuildinfo": 10,
      "lib/tsconfig.tsbuildinfo": 13,
      "tool/dist/cli-bundle/main.js": 12,
    });
    expect(rel(cliModuleUrl(bin()))).toBe("tool/dist/cli/main.js");
  });

  it("runs the bundle of an installed package, with no build information beside it", async () => {
    const rel = await workspace({ "tool/bin/tool.js": 1, "tool/dist/cli-bundle/main.js": 12 });
    expect(rel(cliModuleUrl(bin()))).toBe("tool/dist/cli-bundle/main.js");
  });
});
