// Wheels to environment-package layers: real wheels (built with python3's zipfile) repacked into
// deterministic tar.zst layers, read back with the package tool's extractor.
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { ExitCode } from "@pkg/common";
import { extractBundle } from "@pkg/package/bundle";
import { type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readZipEntry } from "../src/build/unpack/index.js";
import { repackWheel } from "../src/build/wheel/repack.js";
import { checkNoOverlap } from "../src/python/wheel-layout.js";
import { type BuiltWheel, buildWheel } from "./support/wheels.js";

let temp: TempDir;
let work: string;
let app: BuiltWheel;

beforeAll(async () => {
  temp = await tempDir("pkg-mirror-repack-");
  work = temp.path;
  app = await buildWheel(work, {
    name: "Demo_App",
    version: "1.0",
    files: {
      "demo/__init__.py": "def main():\n    print('demo')\n",
      "Demo_App-1.0.data/scripts/demo-sh": "#!/bin/sh\necho demo\n",
      "Demo_App-1.0.data/data/share/doc/demo.txt": "doc\n",
    },
    consoleScripts: { demo: "demo:main", "demo-x": "demo.cli:App.run [extra]" },
    summary: "A demo",
  });
});
afterAll(async () => {
  await temp.remove();
});

async function expectData(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await expect(promise).rejects.toMatchObject({
    exitCode: ExitCode.Data,
    message: expect.stringMatching(pattern),
  });
}

describe("repackWheel", () => {
  it("relocates site-packages, scripts (0755) and data into one layer, the same bytes every time", async () => {
    const first = await repackWheel({
      file: app.path,
      wheel: app.filename,
      output: join(work, "a/layer.tar.zst"),
    });
    const second = await repackWheel({
      file: app.path,
      wheel: app.filename,
      output: join(work, "b/layer.tar.zst"),
    });
    expect(second.digest).toBe(first.digest);
    expect(first.mediaType).toBe("application/vnd.oci.image.layer.v1.tar+zstd");
    expect(first.distribution).toBe("demo-app");
    expect(first.paths).toEqual([
      "bin/demo-sh",
      "lib/site-packages/Demo_App-1.0.dist-info/METADATA",
      "lib/site-packages/Demo_App-1.0.dist-info/RECORD",
      "lib/site-packages/Demo_App-1.0.dist-info/WHEEL",
      "lib/site-packages/Demo_App-1.0.dist-info/entry_points.txt",
      "lib/site-packages/demo/__init__.py",
      "share/doc/demo.txt",
    ]);
    expect(first.consoleScripts.map((s) => [s.name, s.module, s.attribute, s.extras])).toEqual([
      ["demo", "demo", "main", []],
      ["demo-x", "demo.cli", "App.run", ["extra"]],
    ]);
    const out = join(work, "extracted");
    const extracted = await extractBundle(first.layer, out, { expectedDigest: first.digest });
    expect(await readFile(join(out, "lib/site-packages/Demo_App-1.0.dist-info/METADATA"), "utf8")).toContain(
      "Summary: A demo",
    );
    expect(extracted.digest).toBe(first.digest);
    expect((await stat(join(out, "bin/demo-sh"))).mode & 0o777).toBe(0o755);
    expect((await stat(join(out, "lib/site-packages/demo/__init__.py"))).mode & 0o777).toBe(0o644);
    expect(await readFile(join(out, "share/doc/demo.txt"), "utf8")).toBe("doc\n");
  });

  it("refuses a file RECORD does not list, and altered content, with 65", async () => {
    const extra = await buildWheel(join(work, "extra"), {
      name: "tampered",
      version: "1.0",
      files: { "t.py": "x = 1\n" },
      afterRecord: { "evil.py": "import os\n" },
    });
    await expectData(
      repackWheel({ file: extra.path, wheel: extra.filename, output: join(work, "t1/layer.tar.zst") }),
      /evil.py is not listed in RECORD/,
    );
    const altered = await buildWheel(join(work, "altered"), {
      name: "tampered",
      version: "1.0",
      files: { "t.py": "x = 1\n" },
      afterRecord: { "t.py": "x = 2\n" },
    });
    await expectData(
      repackWheel({ file: altered.path, wheel: altered.filename, output: join(work, "t2/layer.tar.zst") }),
      /t.py: sha256 does not match RECORD/,
    );
  });

  it("two wheels installing the same file are 65 (the overlap check over repacked layers)", async () => {
    const one = await buildWheel(join(work, "one"), {
      name: "one",
      version: "1",
      files: { "shared/mod.py": "a\n" },
    });
    const two = await buildWheel(join(work, "two"), {
      name: "two",
      version: "1",
      files: { "shared/mod.py": "b\n" },
    });
    const layers = await Promise.all(
      [one, two].map((w) =>
        repackWheel({ file: w.path, wheel: w.filename, output: join(work, w.filename, "l.tar.zst") }),
      ),
    );
    expect(() => checkNoOverlap(layers.map((l) => ({ wheel: l.wheel, paths: l.paths })))).toThrow(
      expect.objectContaining({
        exitCode: ExitCode.Data,
        message:
          "two-1-py3-none-any.whl: installs lib/site-packages/shared/mod.py, which one-1-py3-none-any.whl installs too",
      }),
    );
  });
});

describe("readZipEntry", () => {
  const metadata = (name: string) => /^[^/]+\.dist-info\/METADATA$/.test(name);

  it("reads one entry of a wheel without unpacking the rest; none that matches is undefined", async () => {
    const entry = await readZipEntry(app.path, metadata, 1 << 20);
    expect(entry?.name).toBe("Demo_App-1.0.dist-info/METADATA");
    expect(entry?.bytes.toString("utf8")).toContain("Summary: A demo");
    expect(await readZipEntry(app.path, (name) => name === "absent.txt", 1 << 20)).toBeUndefined();
  });

  it("refuses an entry larger than the cap with exit 65", async () => {
    await expect(readZipEntry(app.path, metadata, 8)).rejects.toMatchObject({ exitCode: ExitCode.Data });
  });
});
