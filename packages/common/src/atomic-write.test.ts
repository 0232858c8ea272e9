import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  removeTempFilesBeside,
  renameIntoPlace,
  tempPathBeside,
  writeAtomically,
  writeFileAtomically,
  writeFileAtomicallySync,
} from "./atomic-write.js";
import { PkgError } from "./errors.js";
import { ExitCode } from "./exit-codes.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "atomic-write-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const names = async () => (await readdir(dir)).sort();

describe("tempPathBeside", () => {
  it("is a hidden name in the target's directory, new each time", () => {
    const target = join(dir, "out.json");
    const a = tempPathBeside(target);
    expect(dirname(a)).toBe(dir);
    expect(a.slice(dir.length + 1)).toMatch(/^\.out\.json\.[0-9a-f]{12}\.partial$/);
    expect(tempPathBeside(target)).not.toBe(a);
  });
});

describe("writeFileAtomically and writeFileAtomicallySync", () => {
  for (const [name, write] of [
    ["async", writeFileAtomically],
    ["sync", async (target: string, content: string) => writeFileAtomicallySync(target, content)],
  ] as const) {
    it(`${name}: creates and then replaces a file whole, leaving nothing beside it`, async () => {
      const target = join(dir, "file.txt");
      await write(target, "first");
      await write(target, "second");
      expect(await readFile(target, "utf8")).toBe("second");
      expect(await names()).toEqual(["file.txt"]);
    });

    it(`${name}: a failed replacement leaves the target as it was and no temporary file`, async () => {
      // a non-empty directory cannot be renamed over
      const target = join(dir, "taken");
      await mkdir(target);
      await writeFile(join(target, "kept"), "kept");
      await expect(write(target, "new")).rejects.toMatchObject({ code: expect.stringMatching(/^E/) });
      expect(await names()).toEqual(["taken"]);
      expect(await readFile(join(target, "kept"), "utf8")).toBe("kept");
    });
  }

  it("writes the mode asked for", async () => {
    const target = join(dir, "mode");
    await writeFileAtomically(target, "x", { mode: 0o600 });
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });
});

describe("renameIntoPlace", () => {
  it("renames what the writer made (a directory too) and returns its result", async () => {
    const target = join(dir, "tree");
    const result = await renameIntoPlace(target, async (temp) => {
      await mkdir(join(temp, "sub"), { recursive: true });
      await writeFile(join(temp, "sub", "f"), "f");
      return 42;
    });
    expect(result).toBe(42);
    expect(await readFile(join(target, "sub", "f"), "utf8")).toBe("f");
    expect(await names()).toEqual(["tree"]);
  });

  it("passes the writer's error on as it is and removes its half-made directory", async () => {
    const target = join(dir, "tree");
    const failure = new Error("writer failed");
    await expect(
      renameIntoPlace(target, async (temp) => {
        await mkdir(join(temp, "sub"), { recursive: true });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await names()).toEqual([]);
  });
});

describe("writeAtomically", () => {
  it("names a plain failure after the target and what it is, keeping its exit code", async () => {
    const target = join(dir, "missing-dir", "out.json");
    const error = await writeAtomically(target, "report", (temp) => writeFile(temp, "x")).catch((e) => e);
    expect(error).toBeInstanceOf(PkgError);
    expect(error.message).toMatch(new RegExp(`^${target}: report not written: .*ENOENT`));
    expect(error.exitCode).toBe(ExitCode.Data);
  });

  it("passes a PkgError on unchanged", async () => {
    const own = new PkgError(ExitCode.Usage, "no");
    await expect(writeAtomically(join(dir, "x"), "x", async () => Promise.reject(own))).rejects.toBe(own);
    expect(await names()).toEqual([]);
  });
});

describe("removeTempFilesBeside", () => {
  it("removes the temporary files of the target and its companions, and nothing else", async () => {
    const target = join(dir, "bundle.tar.zst");
    const stale = [tempPathBeside(target), tempPathBeside(`${target}.digest.json`)];
    for (const path of stale) await writeFile(path, "half");
    await mkdir(tempPathBeside(target));
    const kept = ["bundle.tar.zst", ".bundle.tar.zst.notes", ".other.abc.partial", "bundle.tar.zst.partial"];
    for (const name of kept) await writeFile(join(dir, name), "kept");
    await removeTempFilesBeside(target);
    expect(await names()).toEqual([...kept].sort());
  });
});
