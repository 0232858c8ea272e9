import type { ImageIndex, PackageRoot, TagEntry } from "@pkg/index";
import type { CatalogConfig, SourceEntry } from "../../src/config/types.js";
import type { LoadedIndex, LoadedPackage } from "../../src/sources/types.js";

export const digest = (n: number) => `sha256:${n.toString(16).padStart(64, "0")}`;

export function imageIndex(
  platforms: { os: string; arch: string; libc?: string }[],
  annotations?: Record<string, string>,
): ImageIndex {
  return {
    schemaVersion: 2,
    manifests: platforms.map((p, i) => ({
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      digest: digest(1000 + i),
      size: 1,
      platform: { os: p.os, architecture: p.arch, ...(p.libc ? { "os.features": [`libc.${p.libc}`] } : {}) },
    })),
    ...(annotations ? { annotations } : {}),
  };
}

export function loadedPackage(
  label: string,
  path: string,
  options: {
    tags?: Record<string, TagEntry>;
    images?: Map<string, ImageIndex>;
    keywords?: string[];
    status?: PackageRoot["status"];
    owners?: string[];
  } = {},
): LoadedPackage {
  const root: PackageRoot = {
    name: `${label}/${path}`,
    repository: `oci://registry.example/${path}`,
    owners: (options.owners ?? ["octo"]).map((github, i) => ({ github, github_id: i + 1 })),
    status: options.status ?? "active",
    deprecated_message: null,
    created: "2026-01-01",
    desc: {
      digest: digest(1),
      title: path.split("/")[1] ?? path,
      description: `about ${path}`,
      keywords: options.keywords ?? [],
    },
    tags: options.tags ?? {},
  };
  return { name: root.name, path, root, imageIndexes: options.images ?? new Map() };
}

export function loadedIndex(label: string, sourceIndex: number, packages: LoadedPackage[]): LoadedIndex {
  return { label, sourceIndex, config: { format_version: 1 }, packages, files: new Map(), warnings: [] };
}

export function catalogConfig(
  sources: Partial<SourceEntry>[],
  extra: Partial<CatalogConfig> = {},
): CatalogConfig {
  return {
    file: "/site/catalog.config.json",
    dir: "/site",
    sources: sources.map(
      (s, index) =>
        ({ kind: "path", path: `/site/i${index}`, rawPath: `i${index}`, index, ...s }) as SourceEntry,
    ),
    brand: { title: "Test catalog" },
    ...extra,
  };
}
