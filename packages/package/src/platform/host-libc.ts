import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { posix } from "node:path";
import { elfInterpreterSync } from "./elf.js";
import type { LibcFlavor } from "./key.js";

/**
 * The libc family a dynamic loader belongs to, by its file name: `ld-musl-<arch>.so.1` is musl;
 * `ld-linux*.so.*` and `ld64.so.*` are glibc's. Any other loader says nothing about the libc.
 */
export function libcOfLoader(interpreter: string): LibcFlavor | undefined {
  const name = posix.basename(interpreter);
  if (name.startsWith("ld-musl-")) return "musl";
  if (name.startsWith("ld-linux") || name.startsWith("ld64.so")) return "glibc";
  return undefined;
}

/**
 * The libc the executable `file` is linked against, by the loader it asks for (its ELF
 * interpreter); undefined for a file that cannot be read, is no ELF executable, is static or names
 * an unknown loader.
 */
export function executableLibc(file: string): LibcFlavor | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const elf = elfInterpreterSync({
      size: fstatSync(fd).size,
      read(offset, length) {
        const buffer = new Uint8Array(length);
        let filled = 0;
        while (filled < length) {
          const got = readSync(fd, buffer, filled, length - filled, offset + filled);
          if (got === 0) break;
          filled += got;
        }
        return buffer.subarray(0, filled);
      },
    });
    return elf.kind === "dynamic" ? libcOfLoader(elf.interpreter) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The libc Node was built against, as its diagnostic report tells: glibc builds report the
 * runtime's version, musl builds do not. Slow: the report gathers everything (~5 ms).
 */
export function reportedLibc(): LibcFlavor {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime ? "glibc" : "musl";
}

/**
 * The libc of the machine this process runs on (Linux): the one whose loader runs Node's own
 * executable — what the diagnostic report says, without building one — else the report's (a
 * static Node, or a loader of another name).
 */
export function hostLibc(): LibcFlavor {
  return executableLibc(process.execPath) ?? reportedLibc();
}
