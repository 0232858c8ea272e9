import { ExitCode } from "@pkg/common";
import { describe, expect, it } from "vitest";
import {
  checkNoOverlap,
  checkRecorded,
  parseConsoleScripts,
  parseRecord,
  planWheelLayout,
} from "./wheel-layout.js";

const W = "demo_app-1.0-py3-none-any.whl";
const H = "sha256=AAAA";

function fails(fn: () => unknown, pattern: RegExp): void {
  expect(fn).toThrow(
    expect.objectContaining({ exitCode: ExitCode.Data, message: expect.stringMatching(pattern) }),
  );
}

describe("parseRecord", () => {
  it("reads path,hash,size lines, quoted paths and RECORD's own empty fields", () => {
    const record = parseRecord(
      `a/b.py,sha256=abc_-,12\n"we,ird.py",sha512=xyz,3\nd-1.0.dist-info/RECORD,,\n`,
      W,
    );
    expect(record.get("a/b.py")).toEqual({ algorithm: "sha256", digest: "abc_-", size: 12 });
    expect(record.get("we,ird.py")).toEqual({ algorithm: "sha512", digest: "xyz", size: 3 });
    expect(record.get("d-1.0.dist-info/RECORD")).toEqual({});
  });
  it("refuses weak hashes, repeated paths and malformed lines with 65", () => {
    fails(() => parseRecord("a.py,md5=abc,1\n", W), /md5; sha256, sha384 or sha512 is required/);
    fails(() => parseRecord("a.py,sha256=x,1\na.py,sha256=x,1\n", W), /lists a.py twice/);
    fails(() => parseRecord("a.py,sha256=x\n", W), /line 1 is not path,hash,size/);
    fails(() => parseRecord("a.py,sha256=x,big\n", W), /size "big"/);
  });
});

describe("planWheelLayout", () => {
  const files = [
    "demo/__init__.py",
    "demo_app-1.0.dist-info/METADATA",
    "demo_app-1.0.dist-info/RECORD",
    "demo_app-1.0.data/scripts/demo-tool",
    "demo_app-1.0.data/data/share/man/man1/demo.1",
    "demo_app-1.0.data/platlib/_demo.so",
    "demo_app-1.0.data/purelib/extra.py",
    "demo_app-1.0.data/headers/demo.h",
  ];
  const record = parseRecord(
    `${files
      .filter((f) => !f.endsWith("RECORD"))
      .map((f) => `${f},${H},1`)
      .join("\n")}\ndemo_app-1.0.dist-info/RECORD,,\n`,
    W,
  );

  it("relocates site-packages, scripts (executable), headers and data", () => {
    const layout = planWheelLayout(W, "demo-app", files, record);
    expect(layout.distInfo).toBe("demo_app-1.0.dist-info");
    expect(Object.fromEntries(layout.placements.map((p) => [p.from, [p.to, p.executable]]))).toEqual({
      "demo/__init__.py": ["lib/site-packages/demo/__init__.py", false],
      "demo_app-1.0.dist-info/METADATA": ["lib/site-packages/demo_app-1.0.dist-info/METADATA", false],
      "demo_app-1.0.dist-info/RECORD": ["lib/site-packages/demo_app-1.0.dist-info/RECORD", false],
      "demo_app-1.0.data/scripts/demo-tool": ["bin/demo-tool", true],
      "demo_app-1.0.data/data/share/man/man1/demo.1": ["share/man/man1/demo.1", false],
      "demo_app-1.0.data/platlib/_demo.so": ["lib/site-packages/_demo.so", false],
      "demo_app-1.0.data/purelib/extra.py": ["lib/site-packages/extra.py", false],
      "demo_app-1.0.data/headers/demo.h": ["include/demo-app/demo.h", false],
    });
  });
  it("refuses unrecorded files, recorded absentees, unknown schemes and foreign dist-info with 65", () => {
    fails(
      () => planWheelLayout(W, "demo-app", [...files, "demo/extra.py"], record),
      /demo\/extra.py is not listed in RECORD/,
    );
    fails(
      () =>
        planWheelLayout(
          W,
          "demo-app",
          files.filter((f) => f !== "demo/__init__.py"),
          record,
        ),
      /RECORD lists demo\/__init__.py, which the wheel does not hold/,
    );
    const odd = [...files, "demo_app-1.0.data/weird/x"];
    const oddRecord = new Map(record).set("demo_app-1.0.data/weird/x", { algorithm: "sha256", digest: "A" });
    fails(() => planWheelLayout(W, "demo-app", odd, oddRecord), /unknown .data scheme "weird"/);
    fails(() => planWheelLayout(W, "other", files, record), /demo_app-1.0.dist-info is not for other/);
    fails(() => planWheelLayout(W, "demo-app", ["demo/__init__.py"], new Map()), /has no .dist-info/);
  });
});

describe("checkRecorded", () => {
  it("compares the digest (padding ignored) and the size", () => {
    checkRecorded(W, "a.py", { algorithm: "sha256", digest: "abc=", size: 3 }, "abc", 3);
    fails(
      () => checkRecorded(W, "a.py", { algorithm: "sha256", digest: "abc" }, "abd", 3),
      /a.py: sha256 does not match RECORD/,
    );
    fails(
      () => checkRecorded(W, "a.py", { algorithm: "sha256", digest: "abc", size: 4 }, "abc", 3),
      /3 bytes, RECORD says 4/,
    );
  });
});

describe("parseConsoleScripts", () => {
  it("reads [console_scripts] only, with attribute chains and extras gates", () => {
    const text =
      "[gui_scripts]\ng = m:f\n\n[console_scripts]\nblack = black:patched_main\nblackd = blackd:main [d]\nx=pkg.mod:Cls.run\nmod-only = pkg.cli\n";
    expect(parseConsoleScripts(text, W)).toEqual([
      { name: "black", module: "black", attribute: "patched_main", extras: [] },
      { name: "blackd", module: "blackd", attribute: "main", extras: ["d"] },
      { name: "x", module: "pkg.mod", attribute: "Cls.run", extras: [] },
      { name: "mod-only", module: "pkg.cli", attribute: "", extras: [] },
    ]);
    fails(
      () => parseConsoleScripts("[console_scripts]\nbad line\n", W),
      /"bad line" is not name = module:attribute/,
    );
  });
});

describe("checkNoOverlap", () => {
  it("accepts shared directories, refuses one file from two wheels and a file where a directory goes with 65", () => {
    checkNoOverlap([
      { wheel: "a.whl", paths: ["lib/site-packages/a/__init__.py", "bin/a"] },
      { wheel: "b.whl", paths: ["lib/site-packages/b/__init__.py", "bin/b"] },
    ]);
    fails(
      () =>
        checkNoOverlap([
          { wheel: "a.whl", paths: ["lib/site-packages/ns/x.py"] },
          { wheel: "b.whl", paths: ["lib/site-packages/ns/x.py"] },
        ]),
      /b.whl: installs lib\/site-packages\/ns\/x.py, which a.whl installs too/,
    );
    fails(
      () =>
        checkNoOverlap([
          { wheel: "a.whl", paths: ["bin/x"] },
          { wheel: "b.whl", paths: ["bin/x/y"] },
        ]),
      /b.whl: installs bin\/x\/y under bin\/x, a file a.whl installs/,
    );
  });
});
