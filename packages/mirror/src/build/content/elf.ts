// The ELF reader lives in @pkg/package (it finds the host's libc there too).
export { type ByteSource, type ElfInterpreter, elfInterpreter } from "@pkg/package";
