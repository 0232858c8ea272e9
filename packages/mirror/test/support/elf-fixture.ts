/**
 * Test support: writes small, well-formed ELF executables (header, program headers, optional
 * PT_INTERP, a PT_LOAD over the whole file), so tests can cover every class, byte order and loader
 * without shipping binaries. `readelf -l` reads them like any executable.
 */
export interface ElfFixture {
  bits: 32 | 64;
  endian: "little" | "big";
  /** The PT_INTERP path; a static executable when absent. */
  interpreter?: string;
  /** e_machine; default x86-64 (62) for 64-bit, i386 (3) for 32-bit. */
  machine?: number;
}

const PT_LOAD = 1;
const PT_INTERP = 3;
const PT_GNU_STACK = 0x6474e551;

/** Where the file header keeps its program header fields, per class (used to damage fixtures). */
export const ELF_HEADER_FIELDS = {
  32: { phoff: 28, phentsize: 42, phnum: 44, size: 52, entrySize: 32 },
  64: { phoff: 32, phentsize: 54, phnum: 56, size: 64, entrySize: 56 },
} as const;

export function buildElf(fixture: ElfFixture): Uint8Array {
  const is64 = fixture.bits === 64;
  const le = fixture.endian === "little";
  const fields = ELF_HEADER_FIELDS[fixture.bits];
  const interp =
    fixture.interpreter === undefined ? undefined : new TextEncoder().encode(fixture.interpreter);
  const segments = interp === undefined ? 2 : 3;
  const interpAt = fields.size + segments * fields.entrySize;
  const code = [0xf4, 0xf4, 0xf4, 0xf4]; // hlt: a body for the loadable segment
  const size = interpAt + (interp ? interp.length + 1 : 0) + code.length;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  const base = is64 ? 0x400000 : 0x8048000;
  const word = (at: number, value: number) =>
    is64 ? view.setBigUint64(at, BigInt(value), le) : view.setUint32(at, value, le);

  bytes.set([0x7f, 0x45, 0x4c, 0x46, is64 ? 2 : 1, le ? 1 : 2, 1]);
  view.setUint16(16, 2, le); // ET_EXEC
  view.setUint16(18, fixture.machine ?? (is64 ? 62 : 3), le);
  view.setUint32(20, 1, le);
  word(24, base + size - code.length);
  word(fields.phoff, fields.size);
  view.setUint16(fields.phentsize - 2, fields.size, le); // e_ehsize sits just before e_phentsize
  view.setUint16(fields.phentsize, fields.entrySize, le);
  view.setUint16(fields.phnum, segments, le);
  view.setUint16(fields.phnum + 2, is64 ? 64 : 40, le); // e_shentsize, with no sections

  const entry = (
    index: number,
    type: number,
    flags: number,
    offset: number,
    length: number,
    align: number,
  ) => {
    const at = fields.size + index * fields.entrySize;
    view.setUint32(at, type, le);
    if (is64) {
      view.setUint32(at + 4, flags, le);
      const values: Array<[number, number]> = [
        [8, offset],
        [16, base + offset],
        [24, base + offset],
        [32, length],
        [40, length],
        [48, align],
      ];
      for (const [field, value] of values) view.setBigUint64(at + field, BigInt(value), le);
    } else {
      const values = [offset, base + offset, base + offset, length, length, flags, align];
      values.forEach((value, i) => {
        view.setUint32(at + 4 + 4 * i, value, le);
      });
    }
  };
  entry(0, PT_LOAD, 5, 0, size, 0x1000);
  entry(1, PT_GNU_STACK, 6, 0, 0, 16);
  if (interp) {
    entry(2, PT_INTERP, 4, interpAt, interp.length + 1, 1);
    bytes.set(interp, interpAt);
  }
  bytes.set(code, size - code.length);
  return bytes;
}
