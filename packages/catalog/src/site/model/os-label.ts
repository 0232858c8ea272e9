/** The OS names of OCI platforms (GOOS values) a badge knows, with the name people use for each.
 *  Anything else an index says is shown as it is, under the generic badge style. */
const knownOses = new Map<string, string>(
  Object.entries({
    linux: "Linux",
    darwin: "macOS",
    windows: "Windows",
    freebsd: "FreeBSD",
    netbsd: "NetBSD",
    openbsd: "OpenBSD",
    dragonfly: "DragonFly",
    illumos: "illumos",
    solaris: "Solaris",
    aix: "AIX",
    android: "Android",
    ios: "iOS",
    plan9: "Plan 9",
    wasip1: "WASI",
    js: "JS/Wasm",
  }),
);

/** How a badge names an OS: `darwin` reads `macOS`; an unknown name stays as given. */
export function osLabel(os: string): string {
  return knownOses.get(os) ?? os;
}

/** The badge's style class: `os-<name>` for a known OS, else `os-other` (an index's text never
 *  becomes a class name). */
export function osClass(os: string): string {
  return knownOses.has(os) ? `os-${os}` : "os-other";
}
