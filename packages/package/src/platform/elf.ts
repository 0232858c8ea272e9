/**
 * Just enough of ELF to learn a file's program interpreter (the PT_INTERP segment): the file
 * header, the program header table and the interpreter string, for 32- and 64-bit files of either
 * byte order. Every offset and length is checked against the file size before it is read, so a
 * truncated or hostile file never causes a read outside it.
 */

/** What a file's header says about its dynamic loader. */
export type ElfInterpreter =
  | { kind: "not-elf" }
  /** Starts with the ELF magic but its headers are unusable (no loader would run it). */
  | { kind: "invalid"; reason: string }
  /** An ELF file without PT_INTERP: statically linked (or a shared object, or an object file). */
  | { kind: "static" }
  | { kind: "dynamic"; interpreter: string };

/** Random access to a file's bytes; `read` may return fewer bytes than asked only at the end. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** `ByteSource`, read synchronously (the host's own executable, at start-up). */
export interface SyncByteSource {
  size: number;
  read(offset: number, length: number): Uint8Array;
}

const MAGIC = [0x7f, 0x45, 0x4c, 0x46];
const PT_INTERP = 3;
/** e_phnum value meaning "the real count is elsewhere": only used by files with >65534 segments. */
const PN_XNUM = 0xffff;
/** The kernel refuses interpreters longer than a page; so do we. */
const MAX_INTERPRETER_BYTES = 4096;
const MAX_PROGRAM_HEADER_BYTES = 1 << 20;

interface ElfLayout {
  is64: boolean;
  littleEndian: boolean;
  phoff: number;
  phentsize: number;
  phnum: number;
}

const headerSize = (is64: boolean) => (is64 ? 64 : 52);
const minEntrySize = (is64: boolean) => (is64 ? 56 : 32);

/** A range to read; the parser is resumed with its bytes. */
interface ReadRequest {
  offset: number;
  length: number;
}

/** The loader a file asks for, reading only the headers it needs. */
export async function elfInterpreter(source: ByteSource): Promise<ElfInterpreter> {
  const steps = interpreterSteps(source.size);
  let step = steps.next();
  while (!step.done) step = steps.next(await source.read(step.value.offset, step.value.length));
  return step.value;
}

/** `elfInterpreter`, reading synchronously. */
export function elfInterpreterSync(source: SyncByteSource): ElfInterpreter {
  const steps = interpreterSteps(source.size);
  let step = steps.next();
  while (!step.done) step = steps.next(source.read(step.value.offset, step.value.length));
  return step.value;
}

/** The parse, one read at a time: each request is answered with the bytes read (the same for either driver). */
function* interpreterSteps(size: number): Generator<ReadRequest, ElfInterpreter, Uint8Array> {
  const head = yield { offset: 0, length: 64 };
  const layout = parseHeader(head, size);
  if ("kind" in layout) return layout;
  const tableLength = layout.phnum * layout.phentsize;
  const table = yield { offset: layout.phoff, length: tableLength };
  if (table.length < tableLength) return invalid("program header table is truncated");
  const segment = findInterpSegment(table, layout, size);
  if (segment === undefined || "kind" in segment) return segment ?? { kind: "static" };
  return decodeInterpreter(yield segment, segment.length);
}

function parseHeader(head: Uint8Array, fileSize: number): ElfLayout | ElfInterpreter {
  if (head.length < MAGIC.length || MAGIC.some((byte, i) => head[i] !== byte)) return { kind: "not-elf" };
  const elfClass = head[4];
  const data = head[5];
  if (elfClass !== 1 && elfClass !== 2) return invalid(`unknown ELF class ${elfClass}`);
  if (data !== 1 && data !== 2) return invalid(`unknown ELF data encoding ${data}`);
  const is64 = elfClass === 2;
  const littleEndian = data === 1;
  if (head.length < headerSize(is64)) return invalid("file header is truncated");
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const phoff = is64 ? readU64(view, 32, littleEndian) : view.getUint32(28, littleEndian);
  const at = is64 ? 54 : 42;
  const phentsize = view.getUint16(at, littleEndian);
  const phnum = view.getUint16(at + 2, littleEndian);
  if (phnum === 0) return { kind: "static" };
  if (phnum === PN_XNUM) return invalid("extended program header numbering is not supported");
  if (phentsize < minEntrySize(is64)) return invalid(`program header entry size ${phentsize} is too small`);
  const tableLength = phnum * phentsize;
  if (tableLength > MAX_PROGRAM_HEADER_BYTES) return invalid("program header table is implausibly large");
  if (phoff === undefined || phoff + tableLength > fileSize) {
    return invalid("program header table lies outside the file");
  }
  return { is64, littleEndian, phoff, phentsize, phnum };
}

/** The first PT_INTERP entry's file range, undefined when there is none. */
function findInterpSegment(
  table: Uint8Array,
  layout: ElfLayout,
  fileSize: number,
): { offset: number; length: number } | ElfInterpreter | undefined {
  const view = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const { is64, littleEndian: le } = layout;
  for (let i = 0; i < layout.phnum; i++) {
    const base = i * layout.phentsize;
    if (view.getUint32(base, le) !== PT_INTERP) continue;
    const offset = is64 ? readU64(view, base + 8, le) : view.getUint32(base + 4, le);
    const length = is64 ? readU64(view, base + 32, le) : view.getUint32(base + 16, le);
    if (offset === undefined || length === undefined || offset + length > fileSize) {
      return invalid("interpreter segment lies outside the file");
    }
    if (length < 2 || length > MAX_INTERPRETER_BYTES) return invalid(`interpreter segment size ${length}`);
    return { offset, length };
  }
  return undefined;
}

/** The segment holds a NUL-terminated path whose terminator is its last byte (as the kernel demands). */
function decodeInterpreter(bytes: Uint8Array, length: number): ElfInterpreter {
  if (bytes.length < length) return invalid("interpreter segment is truncated");
  if (bytes[length - 1] !== 0) return invalid("interpreter path is not NUL-terminated");
  const end = bytes.indexOf(0);
  if (end === 0) return invalid("interpreter path is empty");
  return { kind: "dynamic", interpreter: new TextDecoder().decode(bytes.subarray(0, end)) };
}

/** A 64-bit field as a number; undefined beyond the safe-integer range (no real file gets there). */
function readU64(view: DataView, at: number, littleEndian: boolean): number | undefined {
  const value = view.getBigUint64(at, littleEndian);
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(value);
}

function invalid(reason: string): ElfInterpreter {
  return { kind: "invalid", reason };
}
