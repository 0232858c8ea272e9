import { posix } from "node:path";
import type { LibcFlavor, PlatformKey } from "@pkg/package";

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

/** `key` with its libc declaration replaced by `libc`: the key a build needing that libc belongs under. */
export function keyForLibc(key: PlatformKey, libc: LibcFlavor): string {
  const base = [key.os, key.architecture, key.variant].filter((part) => part !== undefined).join("/");
  const others = key.features.filter((feature) => !feature.startsWith("libc."));
  return `${base}+${[...others, `libc.${libc}`].sort().join(",")}`;
}
