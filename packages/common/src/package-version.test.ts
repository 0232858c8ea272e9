import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readPackageVersion } from "./package-version.js";

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

async function manifest(content: unknown): Promise<URL> {
  const dir = await mkdtemp(join(tmpdir(), "pkg-version-"));
  dirs.push(dir);
  await writeFile(join(dir, "package.json"), JSON.stringify(content));
  return pathToFileURL(join(dir, "package.json"));
}

describe("readPackageVersion", () => {
  it("reads the version of a package.json", async () => {
    expect(readPackageVersion(await manifest({ name: "x", version: "1.2.3" }))).toBe("1.2.3");
  });

  it("refuses a package.json without a version", async () => {
    expect(() => readPackageVersion(new URL("./", "file:///nonexistent/"))).toThrow();
    const url = await manifest({ name: "x" });
    expect(() => readPackageVersion(url)).toThrow(/has no version/);
  });
});
