import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Of } from "../src/index.js";
import { createFsReader, IndexFileError } from "../src/read/index.js";

/** A tree with a plain file, files under one verified directory, a file linking out of the tree,
 *  a file linking inside it, and a directory linking out. */
describe("the local reader resolves real paths per directory, files that are links on their own", () => {
  let temp: TempDir;
  let root: string;
  const text = (s: string) => new TextEncoder().encode(s);
  const request = { maxBytes: 1 << 20 };

  beforeAll(async () => {
    temp = await tempDir("index-realpaths-");
    root = join(temp.path, "index");
    const outside = join(temp.path, "outside");
    await mkdir(join(root, "p", "ns", "pkg", "o", "sha256"), { recursive: true });
    await mkdir(outside);
    for (const name of ["a.json", "b.json", "c.json"])
      await writeFile(join(root, "p", "ns", "pkg", "o", "sha256", name), text(name));
    await writeFile(join(root, "config.json"), text("{}"));
    await writeFile(join(outside, "secret.json"), text("secret"));
    await symlink(join(outside, "secret.json"), join(root, "p", "ns", "pkg", "o", "sha256", "out.json"));
    await writeFile(join(root, "p", "ns", "inside-target.json"), text("inside"));
    await symlink("../inside-target.json", join(root, "p", "ns", "pkg", "in.json"));
    await symlink(outside, join(root, "p", "linked"));
  });

  afterAll(async () => {
    await temp?.remove();
  });

  it("resolves each directory once (five on the way to p/ns/pkg/o/sha256), whatever the number of plain files read from it", async () => {
    const reader = await createFsReader(root);
    const dir = "p/ns/pkg/o/sha256";
    for (const name of ["a.json", "b.json", "c.json"]) {
      const bytes = await reader.read(`${dir}/${name}`, { ...request, digest: sha256Of(text(name)) });
      expect(Buffer.from(bytes ?? []).toString()).toBe(name);
    }
    expect(reader.realpaths).toBe(5);
    expect(await reader.read(`${dir}/missing.json`, request)).toBeUndefined();
    expect(reader.realpaths).toBe(5);
    // the root was resolved when the reader was made
    await reader.read("config.json", request);
    expect(reader.realpaths).toBe(5);
    await reader.read("p/ns/inside-target.json", request);
    expect(reader.realpaths).toBe(5);
  });

  it("still refuses a file of a verified directory that links out of the tree", async () => {
    const reader = await createFsReader(root);
    await reader.read("p/ns/pkg/o/sha256/a.json", request);
    expect(reader.realpaths).toBe(5);
    const refused = await reader.read("p/ns/pkg/o/sha256/out.json", request).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IndexFileError);
    expect((refused as Error).message).toMatch(/out\.json: links outside the index$/);
    // the link was resolved on its own: the directory's real path did not vouch for it
    expect(reader.realpaths).toBe(6);
  });

  it("follows a file that links inside the tree, and refuses a directory that links out", async () => {
    const reader = await createFsReader(root);
    expect(Buffer.from((await reader.read("p/ns/pkg/in.json", request)) ?? []).toString()).toBe("inside");
    const refused = await reader.read("p/linked/secret.json", request).catch((e: unknown) => e);
    // a directory that is a link is resolved whole: its real path is outside
    expect(refused).toBeInstanceOf(IndexFileError);
    expect((refused as Error).message).toMatch(/secret\.json: links outside the index$/);
  });
});
