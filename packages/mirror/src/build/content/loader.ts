import type { LibcFlavor, PlatformKey } from "@pkg/package";

/** `key` with its libc declaration replaced by `libc`: the key a build needing that libc belongs under. */
export function keyForLibc(key: PlatformKey, libc: LibcFlavor): string {
  const base = [key.os, key.architecture, key.variant].filter((part) => part !== undefined).join("/");
  const others = key.features.filter((feature) => !feature.startsWith("libc."));
  return `${base}+${[...others, `libc.${libc}`].sort().join(",")}`;
}
