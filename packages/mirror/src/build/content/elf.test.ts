import { chmod, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type ByteSource, elfInterpreter } from "@pkg/package";
import { runCommand, type TempDir, tempDir } from "@pkg/testkit";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { buildElf, ELF_HEADER_FIELDS, type ElfFixture } from "../../../test/support/elf-fixture.js";
import { readElfInterpreter } from "./elf-file.js";

function memory(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    async read(offset, length) {
      return bytes.slice(offset, offset + length);
    },
  };
}

const inMemory = (bytes: Uint8Array) => elfInterpreter(memory(bytes));

const shapes: Array<Omit<ElfFixture, "interpreter">> = [
  { bits: 64, endian: "little" },
  { bits: 64, endian: "big", machine: 21 },
  { bits: 32, endian: "little" },
  { bits: 32, endian: "big", machine: 8 },
];
const loaders = [
  "/lib/ld-musl-x86_64.so.1",
  "/lib64/ld-linux-x86-64.so.2",
  "/lib/ld-linux-aarch64.so.1",
  "/lib64/ld64.so.2",
];

describe("elfInterpreter on built images", () => {
  for (const shape of shapes) {
    const name = `${shape.bits}-bit ${shape.endian}-endian`;
    test.each(loaders)(`${name}: reads the interpreter %s`, async (interpreter) => {
      expect(await inMemory(buildElf({ ...shape, interpreter }))).toEqual({ kind: "dynamic", interpreter });
    });
    test(`${name}: no PT_INTERP is static`, async () => {
      expect(await inMemory(buildElf(shape))).toEqual({ kind: "static" });
    });
  }
});

describe("elfInterpreter on damaged or foreign input", () => {
  const image = (bits: 32 | 64 = 64) =>
    buildElf({ bits, endian: "little", interpreter: "/lib/ld-musl-x86_64.so.1" });
  const edit = (bits: 32 | 64, change: (view: DataView, bytes: Uint8Array) => void): Uint8Array => {
    const bytes = image(bits);
    change(new DataView(bytes.buffer), bytes);
    return bytes;
  };
  /** Offset of the PT_INTERP entry (the third program header) of `image(bits)`. */
  const interpEntry = (bits: 32 | 64) => ELF_HEADER_FIELDS[bits].size + 2 * ELF_HEADER_FIELDS[bits].entrySize;

  test.each([
    ["empty file", new Uint8Array()],
    ["three bytes of the magic", new Uint8Array([0x7f, 0x45, 0x4c])],
    ["a shell script", new TextEncoder().encode("#!/bin/sh\necho hi\n")],
    ["a Mach-O header", new Uint8Array([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1])],
    ["a PE header", new TextEncoder().encode("MZ\x90\x00")],
  ])("%s is not ELF", async (_name, bytes) => {
    expect(await inMemory(bytes)).toEqual({ kind: "not-elf" });
  });

  const damaged: Array<[string, Uint8Array, RegExp]> = [
    ["unknown class", edit(64, (v) => v.setUint8(4, 3)), /class 3/],
    ["unknown data encoding", edit(64, (v) => v.setUint8(5, 0)), /data encoding 0/],
    ["64-bit header cut short", image(64).slice(0, 60), /header is truncated/],
    ["32-bit header cut short", image(32).slice(0, 50), /header is truncated/],
    [
      "program headers past the end",
      edit(64, (v) => v.setBigUint64(32, 1n << 40n, true)),
      /outside the file/,
    ],
    ["phoff beyond safe integers", edit(64, (v) => v.setBigUint64(32, 1n << 60n, true)), /outside the file/],
    ["file cut inside the program headers", image(64).slice(0, 100), /outside the file/],
    ["entry size too small (64)", edit(64, (v) => v.setUint16(54, 40, true)), /entry size 40/],
    ["entry size too small (32)", edit(32, (v) => v.setUint16(42, 20, true)), /entry size 20/],
    ["extended numbering", edit(64, (v) => v.setUint16(56, 0xffff, true)), /extended/],
    ["huge table", edit(64, (v) => [v.setUint16(56, 0xfffe, true), v.setUint16(54, 0xffff, true)]), /large/],
    [
      "interpreter offset past the end",
      edit(64, (v) => v.setBigUint64(interpEntry(64) + 8, 5000n, true)),
      /interpreter segment lies outside/,
    ],
    [
      "interpreter size past the end (32)",
      edit(32, (v) => v.setUint32(interpEntry(32) + 16, 5000, true)),
      /interpreter segment lies outside/,
    ],
    ["interpreter size zero", edit(64, (v) => v.setBigUint64(interpEntry(64) + 32, 0n, true)), /size 0/],
    [
      "interpreter without terminator",
      edit(64, (v) => v.setBigUint64(interpEntry(64) + 32, 10n, true)),
      /not NUL-terminated/,
    ],
    [
      "interpreter empty string",
      edit(64, (v, b) => {
        const at = Number(v.getBigUint64(interpEntry(64) + 8, true));
        b[at] = 0;
      }),
      /empty/,
    ],
  ];
  test.each(damaged)("%s is invalid", async (_name, bytes, reason) => {
    const result = await inMemory(bytes);
    expect(result.kind).toBe("invalid");
    expect(result.kind === "invalid" && result.reason).toMatch(reason);
  });

  test("phnum 0 reads as static without touching the table", async () => {
    const bytes = edit(64, (v) => v.setUint16(56, 0, true));
    expect(await inMemory(bytes)).toEqual({ kind: "static" });
  });

  test("a big-endian file read as little-endian would be garbage: byte order is honoured", async () => {
    const big = buildElf({ bits: 64, endian: "big", interpreter: "/lib/ld-musl-s390x.so.1" });
    big[5] = 1; // now claims little-endian: its offsets become huge
    expect((await inMemory(big)).kind).toBe("invalid");
  });

  test("reads no byte outside the file, whatever the headers say", async () => {
    const reads: Array<[number, number]> = [];
    for (const [, bytes] of damaged) {
      const source = memory(bytes);
      await elfInterpreter({
        size: source.size,
        read(offset, length) {
          reads.push([offset, length]);
          return source.read(offset, length);
        },
      });
      for (const [offset, length] of reads.splice(0)) {
        expect(offset).toBeGreaterThanOrEqual(0);
        expect(offset === 0 || offset + length <= bytes.length).toBe(true);
      }
    }
  });
});

describe("readElfInterpreter on files", () => {
  let dir: TempDir;
  beforeAll(async () => {
    dir = await tempDir("elf-");
  });
  afterAll(async () => {
    await dir.remove();
  });

  const onDisk: ElfFixture[] = [
    ...shapes.map((shape) => ({ ...shape, interpreter: "/lib/ld-musl-armhf.so.1" })),
    ...shapes,
  ];
  test.each(onDisk)("readelf agrees with the built fixture %j", async (fixture) => {
    const path = join(
      dir.path,
      `fixture-${fixture.bits}-${fixture.endian}-${fixture.interpreter ? "dyn" : "static"}`,
    );
    await writeFile(path, buildElf(fixture));
    const shown = await runCommand("readelf", ["-l", "-W", path]);
    expect(shown.stderr).toBe("");
    const fromReadelf = /Requesting program interpreter: ([^\]]+)\]/.exec(shown.stdout)?.[1];
    expect(fromReadelf).toBe(fixture.interpreter);
    expect(await readElfInterpreter(path)).toEqual(
      fixture.interpreter ? { kind: "dynamic", interpreter: fixture.interpreter } : { kind: "static" },
    );
  });

  test("this machine's /bin/ls asks for glibc's loader, as readelf says", async () => {
    const shown = await runCommand("readelf", ["-l", "-W", "/bin/ls"]);
    const expected = /Requesting program interpreter: ([^\]]+)\]/.exec(shown.stdout)?.[1];
    expect(expected).toMatch(/\/ld-linux[^/]*\.so\.\d$|\/ld64\.so\.\d$/);
    expect(await readElfInterpreter("/bin/ls")).toEqual({ kind: "dynamic", interpreter: expected });
  });

  test("this machine's ldconfig is static-pie: no interpreter", async () => {
    expect(await readElfInterpreter("/sbin/ldconfig")).toEqual({ kind: "static" });
  });

  test("a symlink is followed; a file shorter than a header is not ELF", async () => {
    const target = join(dir.path, "real");
    await writeFile(
      target,
      buildElf({ bits: 64, endian: "little", interpreter: "/lib/ld-musl-x86_64.so.1" }),
    );
    await chmod(target, 0o755);
    await symlink("real", join(dir.path, "link"));
    expect(await readElfInterpreter(join(dir.path, "link"))).toEqual({
      kind: "dynamic",
      interpreter: "/lib/ld-musl-x86_64.so.1",
    });
    await writeFile(join(dir.path, "tiny"), "\x7f");
    expect(await readElfInterpreter(join(dir.path, "tiny"))).toEqual({ kind: "not-elf" });
  });
});
