import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type {
  CatalogIndex,
  ImageIndex,
  IndexConfig,
  PackageRoot,
  PackageStatus,
  Platform,
  TagEntry,
} from "@pkg/index";
import { type Prng, prng } from "./prng.js";
import { syntheticReadme } from "./synthetic-readme.js";

export interface SyntheticLogo {
  ext: "svg" | "png";
  bytes: Uint8Array;
}

export interface SyntheticIndexOptions {
  packages: number;
  /** The index's name, first segment of every package name. Default `synth.dev`. */
  label?: string;
  /** Size of each generated README. Default 2,000. */
  readmeBytes?: number;
  /** `<os>/<arch>[+libc.<flavor>]`; each package gets a seeded subset (at least one). */
  platforms?: string[];
  /** Versions per package (each with its exact, dated, minor and major tags). Default 3. */
  versions?: number;
  seed?: number;
  /** Every n-th package (1-based) has a logo, deprecated status, yanked status. Defaults 3, 17, 23. */
  logoEvery?: number;
  deprecatedEvery?: number;
  yankedEvery?: number;
  /** Replaces the generated README (undefined keeps it) of package `i` (0-based). */
  readmeOf?: (i: number) => string | undefined;
  /** Replaces the generated logo (undefined keeps the default rule) of package `i`. */
  logoOf?: (i: number) => SyntheticLogo | undefined;
}

export interface SyntheticPackage {
  /** `<label>/<ns>/<pkg>` */
  name: string;
  /** `<ns>/<pkg>` */
  path: string;
  title: string;
  description: string;
  status: PackageStatus;
  keywords: string[];
  /** Distinct operating systems of the latest version. */
  os: string[];
  hasLogo: boolean;
  latest: string;
}

export interface SyntheticIndex {
  dir: string;
  label: string;
  packages: SyntheticPackage[];
  /** Files written, and their total size. */
  files: number;
  bytes: number;
}

export const defaultPlatforms = [
  "linux/amd64+libc.glibc",
  "linux/arm64+libc.glibc",
  "linux/amd64+libc.musl",
  "linux/arm64+libc.musl",
  "darwin/amd64",
  "darwin/arm64",
  "windows/amd64",
];

const NAMESPACE_WORDS = "acme tools cloud data forge swift byte nimbus quartz delta orbit pixel".split(" ");
const PACKAGE_WORDS = "lint fmt serve probe sync scan pack trace watch fetch build shell diff merge".split(
  " ",
);
const KEYWORDS = (
  "cli http server linter formatter security scanner kubernetes database json yaml git rust go " +
  "python javascript terminal network monitoring testing build container compression crypto editor"
).split(" ");

const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

function svgLogo(rng: Prng, letters: string): SyntheticLogo {
  const hue = rng.int(360);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" role="img" aria-label="${letters}">` +
    `<rect width="64" height="64" rx="12" fill="hsl(${hue} 60% 40%)"/>` +
    `<text x="32" y="42" font-size="28" text-anchor="middle" fill="#fff">${letters}</text></svg>\n`;
  return { ext: "svg", bytes: Buffer.from(svg) };
}

function platformObject(platform: string): Platform {
  const [osArch = "", libc] = platform.split("+");
  const [os = "", architecture = "", variant] = osArch.split("/");
  return {
    architecture,
    os,
    ...(variant ? { variant } : {}),
    ...(libc ? { "os.features": [libc] } : {}),
  };
}

function imageIndex(rng: Prng, platforms: string[], source: string): ImageIndex {
  return {
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.index.v1+json",
    manifests: platforms.map((platform) => ({
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      digest: `sha256:${sha256(`${platform}${rng.next()}`)}`,
      size: 400 + rng.int(200),
      platform: platformObject(platform),
    })),
    artifactType: "application/vnd.sh.ocx.package.v1",
    annotations: {
      "org.opencontainers.image.licenses": rng.pick(["MIT", "Apache-2.0", "BSD-3-Clause", "MPL-2.0"]),
      "org.opencontainers.image.revision": sha256(String(rng.next())).slice(0, 40),
      "org.opencontainers.image.source": source,
    },
  };
}

const isNth = (i: number, every: number) => every > 0 && (i + 1) % every === 0;

/** One package: its files (index-relative path to bytes) and its summary. */
function syntheticPackage(
  rng: Prng,
  i: number,
  options: Required<Omit<SyntheticIndexOptions, "readmeOf" | "logoOf" | "seed">> &
    Pick<SyntheticIndexOptions, "readmeOf" | "logoOf">,
): { files: Array<[string, Uint8Array]>; root: Uint8Array; summary: SyntheticPackage } {
  const ns = `${rng.pick(NAMESPACE_WORDS)}-${rng.pick(NAMESPACE_WORDS)}`;
  const pkg = `${rng.pick(PACKAGE_WORDS)}-${i.toString(36)}`;
  const path = `${ns}/${pkg}`;
  const objects = `p/${path}/o/sha256`;
  const files: Array<[string, Uint8Array]> = [];
  const put = (bytes: Uint8Array, ext: string) => {
    const hex = sha256(bytes);
    files.push([`${objects}/${hex}.${ext}`, bytes]);
    return `sha256:${hex}`;
  };

  const title = pkg;
  const keywords = rng.sample(KEYWORDS, 2 + rng.int(4));
  const description = `${title} ${rng.pick(["does", "makes", "checks", "serves"])} ${keywords.join(", ")} things, fast.`;
  const readme = options.readmeOf?.(i) ?? syntheticReadme(rng, title, description, options.readmeBytes);
  const logo =
    options.logoOf?.(i) ??
    (isNth(i, options.logoEvery)
      ? rng.next() < 0.8
        ? svgLogo(rng, pkg.slice(0, 2).toUpperCase())
        : { ext: "png" as const, bytes: PNG_1X1 }
      : undefined);

  const source = `https://github.com/${ns}/${pkg}`;
  const platforms = rng.sample(options.platforms, 1 + rng.int(options.platforms.length));
  const tags: Record<string, TagEntry> = {};
  let latest = "";
  for (let v = 0; v < options.versions; v++) {
    const version = `1.${v}.${rng.int(10)}`;
    const content = put(Buffer.from(JSON.stringify(imageIndex(rng, platforms, source))), "json");
    const observed = `2026-0${1 + (v % 9)}-1${v % 10}T12:00:00Z`;
    const entry: TagEntry = { content, observed };
    const exact: TagEntry =
      v === 0 && isNth(i, 7)
        ? { ...entry, yanked: { reason: "broken build", at: "2026-10-01T00:00:00Z" } }
        : entry;
    tags[`${version}_2026010${1 + (v % 9)}`] = exact;
    tags[version] = exact;
    tags[version.slice(0, version.lastIndexOf("."))] = entry;
    if (v === options.versions - 1) {
      latest = version;
      tags["1"] = entry;
      tags.latest = entry;
    }
  }

  const status: PackageStatus = isNth(i, options.yankedEvery)
    ? "yanked"
    : isNth(i, options.deprecatedEvery)
      ? "deprecated"
      : "active";
  const root: PackageRoot = {
    name: `${options.label}/${path}`,
    repository: `oci://ghcr.io/${path}`,
    owners: [{ github: `${ns}-bot`, github_id: 1000 + i }],
    status,
    deprecated_message: status === "deprecated" ? `Use ${ns}/${pkg}-next instead.` : null,
    created: "2026-01-01",
    upstream: { org: ns, repository_url: source, disclaimer: null },
    source,
    desc: {
      digest: `sha256:${sha256(`desc ${path}`)}`,
      title,
      description,
      keywords,
      readme: put(Buffer.from(readme), "md"),
      ...(logo ? { logo: put(logo.bytes, logo.ext) } : {}),
    },
    tags,
  };
  const rootBytes = Buffer.from(`${JSON.stringify(root, null, 2)}\n`);
  files.push([`p/${path}.json`, rootBytes]);
  return {
    files,
    root: rootBytes,
    summary: {
      name: root.name,
      path,
      title,
      description,
      status,
      keywords,
      os: [...new Set(platforms.map((p) => p.split("/")[0] ?? ""))],
      hasLogo: logo !== undefined,
      latest,
    },
  };
}

async function writeAll(dir: string, files: Array<[string, Uint8Array]>): Promise<void> {
  const dirs = new Set(files.map(([path]) => dirname(join(dir, path))));
  for (const d of dirs) await mkdir(d, { recursive: true });
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.pop(); file; file = queue.pop()) await writeFile(join(dir, file[0]), file[1]);
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

/**
 * Writes a valid, deterministic (by `seed`) index into `dir`: `config.json`, `c/index.json` with the
 * sha256 of each root's exact bytes, and per package its root (aliased tags, owners, desc, some
 * yanked tags, some deprecated or yanked packages), image indexes with platforms (libc as an
 * `os.features` entry), a README and some logos (SVG and PNG).
 */
export async function writeSyntheticIndex(
  dir: string,
  options: SyntheticIndexOptions,
): Promise<SyntheticIndex> {
  const settings = {
    label: "synth.dev",
    readmeBytes: 2_000,
    platforms: defaultPlatforms,
    versions: 3,
    logoEvery: 3,
    deprecatedEvery: 17,
    yankedEvery: 23,
    ...options,
  };
  const rng = prng(options.seed ?? 1);
  const files: Array<[string, Uint8Array]> = [];
  const catalog: CatalogIndex = { format_version: 1, packages: {} };
  const packages: SyntheticPackage[] = [];
  for (let i = 0; i < settings.packages; i++) {
    const made = syntheticPackage(rng, i, settings);
    files.push(...made.files);
    catalog.packages[made.summary.path] = `sha256:${sha256(made.root)}`;
    packages.push(made.summary);
  }
  const config: IndexConfig = { format_version: 1, name_segments: 2 };
  files.push(["config.json", Buffer.from(`${JSON.stringify(config, null, 2)}\n`)]);
  files.push(["c/index.json", Buffer.from(`${JSON.stringify(catalog, null, 2)}\n`)]);
  await writeAll(dir, files);
  return {
    dir,
    label: settings.label,
    packages,
    files: files.length,
    bytes: files.reduce((sum, [, bytes]) => sum + bytes.length, 0),
  };
}
