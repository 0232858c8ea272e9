import type { ImageIndex } from "@pkg/index";
import type { PlatformEntry, PlatformMatrix } from "./types.js";

const libcPrefix = "libc.";

/** The platforms of an image index, one per distinct os/arch/variant/libc, in index order.
 *  Descriptors without a platform (attestations, descriptions) are not platforms. */
export function platformsOf(index: ImageIndex | undefined): PlatformEntry[] {
  if (!index || !Array.isArray(index.manifests)) return [];
  const seen = new Set<string>();
  const out: PlatformEntry[] = [];
  for (const descriptor of index.manifests) {
    const platform = descriptor.platform;
    if (!platform || typeof platform.os !== "string" || typeof platform.architecture !== "string") continue;
    if (platform.os === "unknown") continue;
    const arch =
      typeof platform.variant === "string"
        ? `${platform.architecture}/${platform.variant}`
        : platform.architecture;
    const features = Array.isArray(platform["os.features"]) ? platform["os.features"] : [];
    const libcFeature = features.find((f) => typeof f === "string" && f.startsWith(libcPrefix));
    const entry: PlatformEntry = { os: platform.os, arch };
    if (libcFeature) entry.libc = libcFeature.slice(libcPrefix.length);
    const key = `${entry.os}\0${entry.arch}\0${entry.libc ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
  }
  return out;
}

const osOrder = ["linux", "darwin", "windows"];

function rank(order: string[], value: string): number {
  const i = order.indexOf(value);
  return i === -1 ? order.length : i;
}

/** Rows per OS and libc (an OS without libc first), columns per architecture. */
export function platformMatrix(platforms: PlatformEntry[]): PlatformMatrix {
  const arches = [...new Set(platforms.map((p) => p.arch))].sort();
  const rowKeys = new Map<string, { os: string; libc?: string }>();
  for (const p of platforms) {
    const key = `${p.os}\0${p.libc ?? ""}`;
    if (!rowKeys.has(key)) rowKeys.set(key, p.libc === undefined ? { os: p.os } : { os: p.os, libc: p.libc });
  }
  const rows = [...rowKeys.values()]
    .sort(
      (a, b) =>
        rank(osOrder, a.os) - rank(osOrder, b.os) ||
        a.os.localeCompare(b.os) ||
        (a.libc ?? "").localeCompare(b.libc ?? ""),
    )
    .map((row) => ({
      ...row,
      label: row.libc === undefined ? row.os : `${row.os} (${row.libc})`,
      arches: arches.map((arch) =>
        platforms.some((p) => p.os === row.os && p.libc === row.libc && p.arch === arch),
      ),
    }));
  return { arches, rows };
}
